// Models of one value slot (a field of the events of one DAG context), column codings 3
// and 4.
//
// A slot keeps what it saw last and five ways to predict its next value (coding 3 uses
// the first four):
//   0 Previous   the last value (constant sizes, ids, counters that do not move);
//   1 TimeOffset the event's time plus the last (value - time): a field that holds a time
//                (a Paraver state's end, a message's partner time, a buffer flush's stop
//                time) moves with the event's own time;
//   2 Linear     the last value plus the last step (request ids, sequence numbers,
//                accumulating counters);
//   3 TwoBack    the value before the last (two values that alternate);
//   4 Zero       0, i.e. the value itself (coding 4): a sample that jumps around, such as
//                Extrae's hardware counters (the count since the last sample), costs no
//                more than its difference to the last one, and its exact repeats stay
//                repeats for the entropy coder (par-multisort-omp: 9% smaller values).
// Which one predicts is chosen from the past, so nothing is stored for it: each model's
// cost is a decaying sum of the bit lengths of the residuals it would have left, and the
// model of least cost predicts (ties: the lower number). The decoder, having decoded the
// value, updates the same costs, so both sides always agree. A slot never seen before
// predicts 0 (like coding 2).
#pragma once

#include <bit>
#include <cstdint>

#include "model/types.hpp"

namespace mtf::values {

enum class SlotModel : uint8_t { Previous = 0, TimeOffset = 1, Linear = 2, TwoBack = 3, Zero = 4 };
inline constexpr unsigned kSlotModels = 5;
// The models coding 3 chooses among (the first four).
inline constexpr unsigned kCodingThreeModels = 4;
// Bits of one model's cost in SlotState::costs (costs stay at most 1024: 11 bits).
inline constexpr unsigned kCostBits = 12;
inline constexpr uint64_t kCostMask = (uint64_t{1} << kCostBits) - 1;

struct SlotState {
  uint64_t last = 0;    // the last value
  uint64_t step = 0;    // last - the value before it
  uint64_t offset = 0;  // last - the time of its event
  uint64_t costs = 0;   // kCostBits per model, model m at bits [12 m, 12 m + 12)
};

// Bits of a residual (its zigzag form): 0 for a perfect prediction.
inline unsigned residualBits(uint64_t zigzagged) {
  return static_cast<unsigned>(std::bit_width(zigzagged));
}

inline uint64_t zigzagDifference(uint64_t value, uint64_t predicted) {
  const auto d = static_cast<int64_t>(value - predicted);
  return (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63);
}

// Each model's cost at bits [kCostBits m, kCostBits m + 10) of SlotState::costs: costs stay
// at most 1024, so (costs >> 2) masked by this is every cost divided by 4 at once.
inline constexpr uint64_t kQuarterCostMask = [] {
  uint64_t mask = 0;
  for (unsigned m = 0; m < kSlotModels; ++m) mask |= uint64_t{0x3ff} << (kCostBits * m);
  return mask;
}();

// The model of least cost among the first Models (ties: the lower number).
template <unsigned Models>
inline SlotModel bestModelOf(const SlotState& s) {
  unsigned best = 0;
  uint64_t bestCost = s.costs & kCostMask;
#pragma GCC unroll 8
  for (unsigned m = 1; m < Models; ++m) {
    const uint64_t cost = (s.costs >> (kCostBits * m)) & kCostMask;
    if (cost < bestCost) bestCost = cost, best = m;
  }
  return static_cast<SlotModel>(best);
}

// The same for `models` known at run time (kSlotModels or kCodingThreeModels).
inline SlotModel bestModel(const SlotState& s, unsigned models = kSlotModels) {
  return models == kSlotModels ? bestModelOf<kSlotModels>(s) : bestModelOf<kCodingThreeModels>(s);
}

inline uint64_t predictionOf(const SlotState& s, SlotModel m, Tick time) {
  switch (m) {
    case SlotModel::Previous:
      return s.last;
    case SlotModel::TimeOffset:
      return time + s.offset;
    case SlotModel::Linear:
      return s.last + s.step;
    case SlotModel::TwoBack:
      return s.last - s.step;
    case SlotModel::Zero:
      return 0;
  }
  return s.last;
}

// Learns `value`, seen at `time`: updates every model's cost, then the history. The five
// predictions are written out (not predictionOf in a loop): this runs for every value. Each
// cost decays by 3/4 and grows by 4 per bit of its residual: at most 4 * 4 * 64 = 1024, below
// 2^12, so all costs are updated at once in one 64-bit word (no carry or borrow between
// them).
inline void learnSlot(SlotState& s, uint64_t value, Tick time) {
  const uint64_t predictions[kSlotModels] = {s.last, time + s.offset, s.last + s.step,
                                             s.last - s.step, 0};
  uint64_t misses = 0;
#pragma GCC unroll 8
  for (unsigned m = 0; m < kSlotModels; ++m)
    misses |= uint64_t{4 * residualBits(zigzagDifference(value, predictions[m]))}
              << (kCostBits * m);
  s.costs = s.costs - ((s.costs >> 2) & kQuarterCostMask) + misses;
  s.step = value - s.last;
  s.last = value;
  s.offset = value - time;
}

}  // namespace mtf::values
