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

}  // namespace mtf::values
