// Time of generated traces. Every rank follows the same sequence of global steps (the
// phases of the program: a sweep slot, an exchange, a collective). A step's start and
// length come from a counter-based hash of (seed, step index), so each rank computes the
// same windows on its own while the generator writes rank after rank. Within a step a
// rank draws its own jitter. Messages are sent early in a step and received late in it
// (or in a later step), which keeps receives after the matching sends without
// simulating all ranks together.
#pragma once

#include <cstdint>

#include "gen/random.hpp"
#include "model/types.hpp"

namespace mtf::gen {

// Converts nanoseconds into ticks of the trace's resolution (integer arithmetic).
class TickScale {
 public:
  explicit TickScale(uint64_t ticksPerSecond) : resolution_(ticksPerSecond) {}
  Tick fromNs(uint64_t ns) const {
    return static_cast<Tick>(static_cast<unsigned __int128>(ns) * resolution_ / 1'000'000'000u);
  }
  uint64_t resolution() const { return resolution_; }

 private:
  uint64_t resolution_;
};

struct Window {
  Tick start = 0;
  Tick length = 0;
  Tick end() const { return start + length; }
  // The time `permille` thousandths into the window.
  Tick at(uint64_t permille) const { return start + length * permille / 1000; }
};

class StepSchedule {
 public:
  StepSchedule(uint64_t seed, const TickScale& scale, Tick origin)
      : seed_(seed), scale_(scale), cursor_(origin) {}
  // The next global step, about `meanNs` long (+-25%, bell-shaped).
  Window next(uint64_t meanNs) {
    const uint64_t percent = bellPercent(hashOf(seed_, 0x5eed57e9, index_++), 25);
    const Tick length = scale_.fromNs(meanNs * percent / 100) + 1;
    const Window w{cursor_, length};
    cursor_ += length;
    return w;
  }
  // The next global step, exactly `length` ticks long (a pause).
  Window exact(Tick length) {
    const Window w{cursor_, length};
    cursor_ += length;
    return w;
  }
  // Moves the next step's start to `t` if it is later.
  void skipTo(Tick t) {
    if (t > cursor_) cursor_ = t;
  }
  Tick cursor() const { return cursor_; }

 private:
  uint64_t seed_;
  TickScale scale_;
  Tick cursor_;
  uint64_t index_ = 0;
};

// Message transfer model (a fast cluster network): latency plus size / bandwidth.
inline uint64_t latencyNs(uint64_t bytes) {
  return 1500 + bytes / 5;
}
// Time a blocking send or a send post spends copying the buffer.
inline uint64_t sendCostNs(uint64_t bytes) {
  return 300 + bytes / 12;
}

}  // namespace mtf::gen
