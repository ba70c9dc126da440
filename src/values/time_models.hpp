// Time models of column coding 3. An event's time is coded as its delta from the previous
// event of the location, predicted in one of two ways:
//   - from its context (the deltas seen before at the same DAG position: ColumnPredictor's
//     mode 0 or 1, as in coding 2);
//   - from the location's time register: the last value a slot coded with the TimeOffset
//     model (slot_models.hpp), i.e. the last time a field announced. A Paraver thread's
//     states tile its timeline: the next state, and the events that come with it, begin
//     exactly where the last state said it ends.
// As for slots, the choice is made per context from the costs of past residuals (decaying
// sums of their bit lengths), so nothing is stored for it and the decoder follows. The
// costs are weighed only once the register is set (until then the context predicts, and
// the costs stay as they are): most traces have no time-valued field, and pay nothing.
#pragma once

#include <bit>
#include <cstdint>
#include <numeric>

#include "model/types.hpp"

namespace mtf::values {

struct TimeRegister {
  Tick value = 0;
  bool set = false;
};

// True if the register predicts better than the context at a context of these costs.
inline bool useRegister(uint32_t costs, const TimeRegister& r) {
  return r.set && (costs >> 16) < (costs & 0xffff);
}

// The costs after a delta `delta` that the context predicted as `fromContext` and the
// (set) register as `fromRegister`.
inline uint32_t learnTimeCosts(uint32_t costs, uint64_t delta, uint64_t fromContext,
                               uint64_t fromRegister) {
  auto bits = [](uint64_t actual, uint64_t predicted) {
    const auto d = static_cast<int64_t>(actual - predicted);
    return static_cast<uint32_t>(
        std::bit_width((static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63)));
  };
  const uint32_t context = costs & 0xffff, reg = costs >> 16;
  const uint32_t missContext = bits(delta, fromContext);
  const uint32_t missRegister = bits(delta, fromRegister);
  // Decay 3/4 plus 4 per bit: at most 1024, far below 2^16.
  return (context - (context >> 2) + 4 * missContext) |
         ((reg - (reg >> 2) + 4 * missRegister) << 16);
}

// Coding 5: the granularity of a chunk's times. Many traces hold times at a coarser
// precision than their ticks (a Paraver trace in ns whose times are whole us): the deltas
// are then all multiples of some unit. The running GCD of the deltas decoded so far (0
// before the first non-zero one) rounds each prediction to a multiple of it, so the
// residuals stay multiples of the unit too; the encoder then divides them by their GCD
// (stored in the payload). Older codings start at unit 1, which never rounds.
inline uint64_t magnitude(uint64_t v) {
  return static_cast<int64_t>(v) < 0 ? uint64_t{0} - v : v;
}
struct TimeGrain {
  uint64_t unit = 0;
  void learn(uint64_t delta) {
    if (unit != 1) [[unlikely]] {
      unit = std::gcd(unit, magnitude(delta));
    }
  }
  // `predicted` (a signed delta) rounded to the nearest multiple of the unit.
  uint64_t round(uint64_t predicted) const {
    if (unit <= 1 || unit > (uint64_t{1} << 62)) [[likely]]
      return predicted;
    const uint64_t m = magnitude(predicted);
    const uint64_t rounded = (m + unit / 2) / unit * unit;
    return static_cast<int64_t>(predicted) < 0 ? uint64_t{0} - rounded : rounded;
  }
};

// The zigzagged residual `z` divided by `unit` (a divisor of it), and back.
inline uint64_t divideZigzag(uint64_t z, uint64_t unit) {
  const uint64_t d = (z >> 1) ^ (uint64_t{0} - (z & 1));  // the signed residual
  const uint64_t q = magnitude(d) / unit;
  return static_cast<int64_t>(d) < 0 ? ((q - 1) << 1) | 1 : q << 1;
}
inline uint64_t multiplyZigzag(uint64_t z, uint64_t unit) {
  const uint64_t d = ((z >> 1) ^ (uint64_t{0} - (z & 1))) * unit;
  return (d << 1) ^ (uint64_t{0} - (d >> 63));
}

}  // namespace mtf::values
