// The slot models of column codings 3 and 4 (slot_models.hpp), each on its own: what each model
// predicts, how the costs choose among them, ties, and the cost arithmetic. That encoder
// and decoder agree is covered by the round trips of columns_test.cpp.
#include "values/slot_models.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mtf::values {
namespace {

// A slot that has learnt `values`, seen at `times`.
SlotState learnt(const std::vector<uint64_t>& values, const std::vector<Tick>& times) {
  SlotState s;
  for (size_t i = 0; i < values.size(); ++i) learnSlot(s, values[i], times[i]);
  return s;
}

uint64_t costOf(const SlotState& s, SlotModel m) {
  return (s.costs >> (kCostBits * static_cast<unsigned>(m))) & kCostMask;
}

TEST(SlotModels, AFreshSlotPredictsZeroWithPrevious) {
  const SlotState s;
  EXPECT_EQ(bestModel(s), SlotModel::Previous);  // all costs 0: the lowest number
  EXPECT_EQ(predictionOf(s, bestModel(s), 1234), 0u);
}

TEST(SlotModels, EachModelPredictsFromItsHistory) {
  const SlotState s = learnt({10, 17}, {100, 200});  // last 17, step 7, offset 17 - 200
  EXPECT_EQ(predictionOf(s, SlotModel::Previous, 300), 17u);
  EXPECT_EQ(predictionOf(s, SlotModel::TimeOffset, 300), 117u);  // 300 + (17 - 200)
  EXPECT_EQ(predictionOf(s, SlotModel::Linear, 300), 24u);
  EXPECT_EQ(predictionOf(s, SlotModel::TwoBack, 300), 10u);
  EXPECT_EQ(predictionOf(s, SlotModel::Zero, 300), 0u);
}

// Values that jump around (hardware counter samples): the value itself costs less than
// its difference to the last one, so Zero predicts; coding 3 never chooses it.
TEST(SlotModels, JumpingSamplesAreCodedAsThemselves) {
  SlotState s;
  for (uint64_t v : {845561u, 6479u, 83254u, 86444u, 2454u, 601508u, 34231u, 1030u})
    learnSlot(s, v, 0);
  EXPECT_EQ(bestModel(s), SlotModel::Zero);
  EXPECT_NE(bestModel(s, kCodingThreeModels), SlotModel::Zero);
}

TEST(SlotModels, HistoryWrapsModulo64Bits) {
  const SlotState s = learnt({5, 2}, {0, 1});  // step -3
  EXPECT_EQ(predictionOf(s, SlotModel::Linear, 0), uint64_t(-1));
  EXPECT_EQ(predictionOf(s, SlotModel::TwoBack, 0), 5u);
}

TEST(SlotModels, ResidualBitsAndZigzag) {
  EXPECT_EQ(residualBits(zigzagDifference(7, 7)), 0u);
  EXPECT_EQ(zigzagDifference(6, 7), 1u);  // -1
  EXPECT_EQ(zigzagDifference(8, 7), 2u);  // +1
  EXPECT_EQ(residualBits(zigzagDifference(8, 7)), 2u);
  EXPECT_EQ(residualBits(zigzagDifference(0, uint64_t{1} << 63)), 64u);
}

TEST(SlotModels, CostsDecayByAQuarterAndAddFourPerBit) {
  SlotState s;
  learnSlot(s, 3, 0);  // residuals against 0: zigzag 6, 3 bits for every model
  for (unsigned m = 0; m < kSlotModels; ++m) EXPECT_EQ(costOf(s, SlotModel(m)), 12u);
  // Previous and TimeOffset exact; Linear predicts 6 (zigzag(-3) = 5: 3 bits); TwoBack
  // predicts 0 (zigzag(3) = 6: 3 bits).
  learnSlot(s, 3, 0);
  EXPECT_EQ(costOf(s, SlotModel::Previous), 9u);  // 12 - 12 / 4
  EXPECT_EQ(costOf(s, SlotModel::TimeOffset), 9u);
  EXPECT_EQ(costOf(s, SlotModel::Linear), 9u + 4 * 3);
  EXPECT_EQ(costOf(s, SlotModel::TwoBack), 9u + 4 * 3);
  EXPECT_EQ(costOf(s, SlotModel::Zero), 9u + 4 * 3);  // predicts 0 again
}

TEST(SlotModels, ChoiceFollowsTheCosts) {
  // A counter: Linear takes over after a few values.
  std::vector<uint64_t> counter;
  std::vector<Tick> times;
  for (uint64_t i = 0; i < 8; ++i)
    counter.push_back(1000 + 37 * i), times.push_back(i * 991 + i * i * 13 % 97);
  SlotState s = learnt(counter, times);
  EXPECT_EQ(bestModel(s), SlotModel::Linear);
  EXPECT_EQ(predictionOf(s, bestModel(s), 0), 1000u + 37 * 8);
  // A field that holds a time: TimeOffset.
  std::vector<uint64_t> ends;
  for (Tick t : times) ends.push_back(t + 250);
  s = learnt(ends, times);
  EXPECT_EQ(bestModel(s), SlotModel::TimeOffset);
  // Two alternating values: TwoBack.
  s = learnt({4, 9000, 4, 9000, 4, 9000, 4}, times);
  EXPECT_EQ(bestModel(s), SlotModel::TwoBack);
  EXPECT_EQ(predictionOf(s, bestModel(s), 0), 9000u);
  // A constant at varying times: Previous (Linear and TwoBack equal it, ties go lower).
  s = learnt({42, 42, 42, 42, 42, 42, 42, 42}, times);
  EXPECT_EQ(bestModel(s), SlotModel::Previous);
}

// SlotState::costs holding these costs, model 0 first.
uint64_t packed(std::vector<uint64_t> costs) {
  uint64_t out = 0;
  for (unsigned m = 0; m < costs.size(); ++m) out |= costs[m] << (kCostBits * m);
  return out;
}

TEST(SlotModels, TiesGoToTheLowerModelNumber) {
  SlotState s;
  s.costs = packed({5, 3, 3, 3, 3});
  EXPECT_EQ(bestModel(s), SlotModel::TimeOffset);
  s.costs = packed({5, 4, 2, 2, 9});
  EXPECT_EQ(bestModel(s), SlotModel::Linear);
  s.costs = packed({5, 4, 3, 2, 2});
  EXPECT_EQ(bestModel(s), SlotModel::TwoBack);
  s.costs = packed({5, 4, 3, 3, 2});
  EXPECT_EQ(bestModel(s), SlotModel::Zero);
  EXPECT_EQ(bestModel(s, kCodingThreeModels), SlotModel::Linear);
}

TEST(SlotModels, CostsStayWithinTheirBits) {
  SlotState s;
  for (int i = 0; i < 200; ++i) learnSlot(s, (i % 2) ? uint64_t{1} << 63 : 0, 0);
  for (unsigned m = 0; m < kSlotModels; ++m) EXPECT_LE(costOf(s, SlotModel(m)), 1024u);
  EXPECT_GT(costOf(s, SlotModel::Previous), 1000u);  // misses of 64 bits: near the bound
}

// The costs all updated at once in one word (learnSlot) are those of each model updated on
// its own: old - old / 4 + 4 * bits of its residual, with no carry or borrow between
// neighbours, also at the bound (residuals of 64 bits) and on the way down from it.
TEST(SlotModels, CostsUpdatedTogetherAsEachOnItsOwn) {
  SlotState s;
  uint64_t expected[kSlotModels] = {};
  uint64_t x = 0x9e3779b97f4a7c15;
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // xorshift: values of every width
    const uint64_t value = i < 1000 ? x : i < 2000 ? x >> (x % 64) : 5;
    const Tick time = static_cast<Tick>(i) * 977;
    const uint64_t predictions[kSlotModels] = {s.last, time + s.offset, s.last + s.step,
                                               s.last - s.step, 0};
    for (unsigned m = 0; m < kSlotModels; ++m)
      expected[m] =
          expected[m] - expected[m] / 4 + 4 * residualBits(zigzagDifference(value, predictions[m]));
    learnSlot(s, value, time);
    for (unsigned m = 0; m < kSlotModels; ++m)
      ASSERT_EQ(costOf(s, SlotModel(m)), expected[m]) << "value " << i << ", model " << m;
  }
}

}  // namespace
}  // namespace mtf::values
