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

// Whether a thread has taken on ending the process.
std::atomic<bool> ending{false};
std::mutex cleanupMutex;
std::function<std::string()> interruptCleanup;

void waitForSignal() {
  pollfd fd{interruptPipe(), POLLIN, 0};
  while (interruptSignal() == 0) poll(&fd, 1, 200);
}

// At once: mpirun follows its SIGTERM with a SIGKILL a few milliseconds later (measured
// with Open MPI 4.1), too soon for the main thread to unwind.
void watch(bool root) {
  waitForSignal();
  if (!claimInterruptedExit()) return;
  std::string line = kInterruptedMessage;
  {
    std::lock_guard lock(cleanupMutex);
    if (interruptCleanup) {
      try {
        line = interruptCleanup();
      } catch (...) {  // ending anyway
      }
    }
  }
  endInterrupted(interruptSignal(), root, line);
}

}  // namespace

InsideMpi::InsideMpi() = default;

InsideMpi::~InsideMpi() {
  // The watcher is ending the process: the main thread must not write anything more.
  while (ending.load()) std::this_thread::sleep_for(std::chrono::seconds(1));
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

bool claimInterruptedExit() {
  bool expected = false;
  return ending.compare_exchange_strong(expected, true);
}

void endInterrupted(int signal, bool root, const std::string& line) {
  if (root) {
    std::fprintf(stderr, "mtf-mpi: %s\n", line.c_str());
    std::fflush(stderr);
  } else {
    // The first process to end makes mpirun kill the others at once: rank 0, signalled
    // too, gets the time to say the line (mpirun's kill also ends this wait).
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  _exit(128 + signal);
}

void waitForTheWatcher() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
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
