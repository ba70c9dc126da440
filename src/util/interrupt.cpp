#include "util/interrupt.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

namespace mtf {

namespace {

// Lock-free, hence safe in a signal handler, and seen by every thread (a volatile
// sig_atomic_t is only guaranteed for the thread the handler interrupted).
std::atomic<int> receivedSignal{0};
static_assert(std::atomic<int>::is_always_lock_free);
int signalPipe[2] = {-1, -1};

extern "C" void onInterrupt(int signal) {
  const int savedErrno = errno;
  int expected = 0;
  receivedSignal.compare_exchange_strong(expected, signal);
  if (signalPipe[1] >= 0) {
    const unsigned char byte = static_cast<unsigned char>(signal);
    [[maybe_unused]] const ssize_t n = write(signalPipe[1], &byte, 1);
  }
  errno = savedErrno;
}

void install(int signal) {
  struct sigaction current {};
  if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = onInterrupt;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: a read or write is not failed by the signal (it would be
  // reported as an I/O error); the pipeline sees the flag at its next check.
  action.sa_flags = SA_RESTART;
  sigaction(signal, &action, nullptr);
}

}  // namespace

void catchInterrupts() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) signalPipe[0] = signalPipe[1] = -1;
    for (int signal : {SIGINT, SIGTERM, SIGHUP}) install(signal);
  });
}

int interruptSignal() noexcept {
  return receivedSignal.load(std::memory_order_relaxed);
}

int interruptPipe() noexcept {
  return signalPipe[0];
}

void pauseForTest(const char* point) {
  const char* at = std::getenv("MTF_TEST_PAUSE_AT");
  const char* dir = std::getenv("MTF_TEST_PAUSE_DIR");
  if (!at || !dir || std::strcmp(at, point) != 0) return;
  const std::string pid = std::to_string(getpid());
  {
    std::ofstream marker(std::string(dir) + "/" + point + "." + pid);
    marker << pid << '\n';
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (interruptSignal() == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

void InterruptibleSink::begin(const Definitions& defs) {
  throwIfInterrupted();
  inner_.begin(defs);
}

void InterruptibleSink::checkpoint() {
  if (!pausedForTest_) {
    pausedForTest_ = true;
    pauseForTest("read");
  }
  throwIfInterrupted();
}

void InterruptibleSink::events(const SharedEventBatch& batch) {
  checkpoint();
  inner_.events(batch);
}

void InterruptibleSink::end() {
  if (writePoint_) pauseForTest("write");
  throwIfInterrupted();
  inner_.end();
}

}  // namespace mtf
