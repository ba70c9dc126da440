// Progress on stderr for long commands, only when stderr is a terminal and not -q.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace mtf {

class Progress {
 public:
  Progress(std::string label, bool enabled);
  ~Progress();
  // Cheap to call per event: prints at most a few times per second.
  void tick(uint64_t done) { advance(done - 1, done); }
  // For a caller that counts in steps (a batch of events): `done` went up from `before`.
  // Looks at the clock each time the count passes a multiple of 65536.
  void advance(uint64_t before, uint64_t done) {
    if (enabled_ && (before >> 16) != (done >> 16)) maybePrint(done);
  }
  void finish();

 private:
  void maybePrint(uint64_t done);
  std::string label_;
  bool enabled_;
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_;
};

// True when stderr is a terminal.
bool stderrIsTerminal();

}  // namespace mtf
