#include "mpi/interrupt_watch.hpp"

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "util/interrupt.hpp"
#include "util/staging_owner.hpp"

namespace mtf::mpi {

namespace fs = std::filesystem;

namespace {

std::atomic<int> mpiDepth{0};
// Who ends the process: 0 nobody yet, 1 the ordinary path, 2 the watcher.
std::atomic<int> ender{0};
std::mutex cleanupMutex;
std::function<std::string()> interruptCleanup;

// The ordinary path gets this long to end by itself when it is not inside MPI (mpirun
// follows its SIGTERM with a SIGKILL some seconds later).
constexpr auto kGrace = std::chrono::milliseconds(1500);

[[noreturn]] void endProcess(int signal, bool root, const std::string& detail) {
  if (root) std::fprintf(stderr, "mtf-mpi: %s%s\n", kInterruptedMessage, detail.c_str());
  std::fflush(stderr);
  _exit(128 + signal);
}

void waitForSignal() {
  pollfd fd{interruptPipe(), POLLIN, 0};
  while (interruptSignal() == 0) poll(&fd, 1, 200);
}

void watch(bool root) {
  waitForSignal();
  const auto until = std::chrono::steady_clock::now() + kGrace;
  while (mpiDepth.load() == 0 && std::chrono::steady_clock::now() < until) {
    if (ender.load() != 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  int none = 0;
  if (!ender.compare_exchange_strong(none, 2)) return;
  std::string detail;
  {
    std::lock_guard lock(cleanupMutex);
    if (interruptCleanup) {
      try {
        detail = interruptCleanup();
      } catch (...) {  // ending anyway
      }
    }
  }
  endProcess(interruptSignal(), root, detail);
}

}  // namespace

InsideMpi::InsideMpi() {
  ++mpiDepth;
}

InsideMpi::~InsideMpi() {
  --mpiDepth;
  // The watcher is ending the process: the main thread must not write anything more.
  while (ender.load() == 2) std::this_thread::sleep_for(std::chrono::seconds(1));
}

void watchInterrupts(bool root) {
  static std::once_flag once;
  std::call_once(once, [root] {
    catchInterrupts();
    if (interruptPipe() >= 0) std::thread(watch, root).detach();
  });
}

void setInterruptCleanup(std::function<std::string()> cleanup) {
  std::lock_guard lock(cleanupMutex);
  interruptCleanup = std::move(cleanup);
}

void exitInterrupted(int signal, bool root, const std::string& detail) {
  int none = 0;
  if (!ender.compare_exchange_strong(none, 1))
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));  // the watcher ends it
  endProcess(signal, root, detail);
}

ProcessRecord::ProcessRecord(const fs::path& stagingDir, int rank)
    : path_(stagingDir / (".mtf-mpi-process." + std::to_string(rank))) {
  staging::writeOwnerFile(path_, staging::currentProcess());
}

ProcessRecord::~ProcessRecord() {
  remove();
}

void ProcessRecord::remove() {
  std::error_code ignored;
  if (!path_.empty()) fs::remove(path_, ignored);
}

std::string deadProcesses(const fs::path& stagingDir, int processes) {
  std::string dead;
  int count = 0;
  for (int rank = 1; rank < processes; ++rank) {
    const auto owner =
        staging::readOwnerFile(stagingDir / (".mtf-mpi-process." + std::to_string(rank)));
    if (!owner || staging::ownerState(*owner) != staging::OwnerState::Dead) continue;
    dead += (count++ ? ", " : " ") + std::to_string(rank);
  }
  if (count == 0) return "";
  return std::string(" (process") + (count > 1 ? "es" : "") + dead + " died)";
}

}  // namespace mtf::mpi
