// CutEffect: what a run of events leaves open, composed and repeated.
#include "compaction/cut_prefix.hpp"

#include <gtest/gtest.h>

namespace mtf::compaction {
namespace {

CutEffect effect(uint64_t pops, std::vector<SigId> pushes, int8_t collective = -1) {
  CutEffect e;
  e.pops = pops;
  e.pushes = std::move(pushes);
  e.collective = collective;
  return e;
}

TEST(CutEffect, LeavesCloseTheLastEntersAndTheRestPassOn) {
  CutEffect run = effect(0, {1, 2, 3});
  run.then(effect(2, {4}));
  EXPECT_EQ(run.pops, 0u);
  EXPECT_EQ(run.pushes, (std::vector<SigId>{1, 4}));
  run.then(effect(3, {}));
  EXPECT_EQ(run.pops, 1u);  // one Leave of a call entered before the run
  EXPECT_TRUE(run.pushes.empty());
}

TEST(CutEffect, RepeatedRunsMultiplyMessagesAndKeepTheLastCollective) {
  CutEffect body = effect(0, {}, 0);
  body.messages[7] = 3;
  CutEffect run = effect(0, {5}, 1);
  run.then(body, 1000);
  EXPECT_EQ(run.messages.at(7), 3000u);
  EXPECT_EQ(run.collective, 0);
  EXPECT_EQ(run.pushes, (std::vector<SigId>{5}));
  run.then(body, 0);  // no run: nothing changes
  EXPECT_EQ(run.messages.at(7), 3000u);
}

TEST(CutEffect, UnbalancedRepeatsApplyEachTime) {
  CutEffect run = effect(0, {1, 1, 1});
  run.then(effect(1, {}), 2);  // two Leaves
  EXPECT_EQ(run.pushes, (std::vector<SigId>{1}));
  run.then(effect(0, {2}), 3);
  EXPECT_EQ(run.pushes, (std::vector<SigId>{1, 2, 2, 2}));
}

}  // namespace
}  // namespace mtf::compaction
