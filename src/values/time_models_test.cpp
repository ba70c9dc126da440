// The time models of column coding 3 (time_models.hpp) on their own: when the register
// predicts, and how the costs of context and register learn.
#include "values/time_models.hpp"

#include <gtest/gtest.h>

namespace mtf::values {
namespace {

uint32_t contextCost(uint32_t costs) {
  return costs & 0xffff;
}
uint32_t registerCost(uint32_t costs) {
  return costs >> 16;
}

TEST(TimeModels, AnUnsetRegisterNeverPredicts) {
  EXPECT_FALSE(useRegister(0xffffu, TimeRegister{}));  // register cost 0 < context cost
  EXPECT_TRUE(useRegister(0xffffu, TimeRegister{5, true}));
}

TEST(TimeModels, TheCheaperWayPredictsTiesGoToTheContext) {
  const TimeRegister set{100, true};
  EXPECT_TRUE(useRegister((3u << 16) | 4u, set));
  EXPECT_FALSE(useRegister((4u << 16) | 4u, set));
  EXPECT_FALSE(useRegister((5u << 16) | 4u, set));
}

TEST(TimeModels, CostsDecayByAQuarterAndAddFourPerBit) {
  // Context predicts 7 for 10 (zigzag(3) = 6: 3 bits); register exact.
  uint32_t costs = learnTimeCosts(0, 10, 7, 10);
  EXPECT_EQ(contextCost(costs), 12u);
  EXPECT_EQ(registerCost(costs), 0u);
  costs = learnTimeCosts(costs, 10, 10, 9);  // context exact; register 1 low: 2 bits
  EXPECT_EQ(contextCost(costs), 9u);
  EXPECT_EQ(registerCost(costs), 8u);
  // Wrapping differences: a delta that went backwards.
  costs = learnTimeCosts(0, uint64_t(-2), 0, uint64_t(-2));
  EXPECT_EQ(contextCost(costs), 4u * 2);  // zigzag(-2) = 3: 2 bits
  EXPECT_EQ(registerCost(costs), 0u);
}

TEST(TimeModels, TheRegisterTakesOverWhenItIsRightMoreOften) {
  // A context whose deltas vary while the register always knows the time.
  uint32_t costs = 0;
  const TimeRegister set{0, true};
  EXPECT_FALSE(useRegister(costs, set));
  for (uint64_t d : {500, 900, 300, 700}) costs = learnTimeCosts(costs, d, 600, d);
  EXPECT_TRUE(useRegister(costs, set));
  // ...and gives way again when it keeps missing.
  for (int i = 0; i < 8; ++i) costs = learnTimeCosts(costs, 600, 600, 1 << 20);
  EXPECT_FALSE(useRegister(costs, set));
}

TEST(TimeModels, CostsStayWithin16Bits) {
  uint32_t costs = 0;
  for (int i = 0; i < 100; ++i) costs = learnTimeCosts(costs, uint64_t{1} << 63, 0, 1);
  EXPECT_LT(contextCost(costs), 2048u);
  EXPECT_LT(registerCost(costs), 2048u);
}

}  // namespace
}  // namespace mtf::values
