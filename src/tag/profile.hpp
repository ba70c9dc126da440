// An execution profile (seed 004, section 2.1): how often something ran and how long it
// took, kept as integer ticks so that merging profiles (PTAG, --fold-ranks) is exact. The
// standard deviation is derived from the sums only when it is printed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "model/types.hpp"

namespace mtf::tag {

struct Profile {
  uint64_t count = 0;
  uint64_t total = 0;           // sum of the durations, ticks
  unsigned __int128 sumSq = 0;  // sum of the squared durations, ticks^2
  Tick min = std::numeric_limits<Tick>::max();
  Tick max = 0;

  void add(Tick duration) {
    ++count;
    total += duration;
    sumSq += static_cast<unsigned __int128>(duration) * duration;
    min = std::min(min, duration);
    max = std::max(max, duration);
  }
  void merge(const Profile& other) {
    count += other.count;
    total += other.total;
    sumSq += other.sumSq;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
  }
  Tick minOrZero() const { return count ? min : 0; }
  // Population standard deviation in ticks (derived output, so a floating-point value).
  long double stddevTicks() const;
};

// `ticks` at `resolution` ticks per second in whole nanoseconds, rounded to nearest.
int64_t ticksToNs(unsigned __int128 ticks, uint64_t resolution);
long double ticksToNsReal(long double ticks, uint64_t resolution);

}  // namespace mtf::tag
