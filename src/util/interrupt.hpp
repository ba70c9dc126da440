// Interrupts (SIGINT, SIGTERM, SIGHUP) of a command that writes. The handler only records
// the signal (and writes it to a pipe for a thread that waits on it); the pipeline notices
// the signal at safe points (each batch of events, each chunk of output) and unwinds by
// throwing Interrupted, so that SafeOutput, spools and temporary runs are removed by their
// destructors on the ordinary path. `main` then prints one line and exits 128 + signal.
#pragma once

#include <exception>

#include "model/trace_stream.hpp"

namespace mtf {

// What a command prints (after "mtf: " or "mtf-mpi: ") when a signal ended it.
inline constexpr const char* kInterruptedMessage = "interrupted: nothing was written";

class Interrupted : public std::exception {
 public:
  explicit Interrupted(int signal) : signal_(signal) {}
  int signal() const { return signal_; }
  int exitCode() const { return 128 + signal_; }
  const char* what() const noexcept override { return "interrupted"; }

 private:
  int signal_;
};

// Installs the handler for SIGINT, SIGTERM and SIGHUP (once; a signal the process was
// started with ignored, as under nohup, stays ignored). Only commands that write call it:
// the others keep the default (end at once, nothing to clean up).
void catchInterrupts();
// The first signal received, 0 if none.
int interruptSignal() noexcept;
inline void throwIfInterrupted() {
  if (const int signal = interruptSignal()) throw Interrupted(signal);
}
// A pipe's read end that receives one byte (the signal number) per signal; -1 before
// catchInterrupts().
int interruptPipe() noexcept;

// For the tests: when MTF_TEST_PAUSE_AT names `point` (read, write, rename), the process
// writes its pid to the file MTF_TEST_PAUSE_DIR/POINT.PID and waits there (at most a
// minute) until a signal arrives, so that a test interrupts it at a known place.
void pauseForTest(const char* point);

// Passes everything on to `inner`, checking for an interrupt on each batch of events
// (the test's "read" point) and before the end (the "write" point, unless `writePoint` is
// false: mtf-mpi's is where the processes write the archive).
class InterruptibleSink final : public TraceSink {
 public:
  explicit InterruptibleSink(TraceSink& inner, bool writePoint = true)
      : inner_(inner), writePoint_(writePoint) {}
  void begin(const Definitions& defs) override;
  // Inline: a sink in front (convert's counter) calls it directly, once per event.
  void event(const Event& e) override {
    if (singles_++ % 4096 == 0) checkpoint();
    inner_.event(e);
  }
  void events(const SharedEventBatch& batch) override;
  bool prefersBatches() const override { return inner_.prefersBatches(); }
  bool takeTimeOrder() override { return inner_.takeTimeOrder(); }
  void end() override;
  LossReport losses() const override { return inner_.losses(); }

 private:
  void checkpoint();
  TraceSink& inner_;
  bool writePoint_;
  bool pausedForTest_ = false;
  unsigned singles_ = 0;
};

}  // namespace mtf
