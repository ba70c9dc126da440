// Ticks to the Trace Event Format's microseconds, keeping nanoseconds: a tick count is
// turned into whole nanoseconds by integer arithmetic (exactly when the resolution
// divides 10^9, otherwise rounded to the nearest nanosecond and counted), then printed
// as microseconds with three decimals ("12.345" = 12,345 ns). Never through a double.
#pragma once

#include <cstdint>
#include <string>

#include "model/types.hpp"

namespace mtf::chrome {

class MicroClock {
 public:
  // `resolution`: ticks per second; `origin`: the tick printed as ts 0 (the trace's
  // start, so that printed values stay small enough for readers that parse doubles).
  MicroClock(uint64_t resolution, Tick origin);

  // Nanoseconds from the origin (negative before it).
  int64_t nanoseconds(Tick t);
  // Appends ns / 1000 with exactly three decimals.
  static void appendMicros(std::string& out, int64_t ns);

  // Times that were not a whole number of nanoseconds.
  uint64_t rounded() const { return rounded_; }
  // Times further than 2^53 ns (104 days) from the origin: a reader parsing doubles
  // cannot keep their nanoseconds.
  uint64_t beyondDoublePrecision() const { return beyond_; }

 private:
  uint64_t resolution_;
  Tick origin_;
  uint64_t factor_ = 0;  // ns per tick when the resolution divides 10^9, else 0
  uint64_t rounded_ = 0;
  uint64_t beyond_ = 0;
};

}  // namespace mtf::chrome
