#include "mpi/partition.hpp"

#include <gtest/gtest.h>

namespace mtf::mpi {
namespace {

TEST(SplitByWeight, EqualWeightsGiveEqualRuns) {
  const std::vector<Share> s = splitByWeight(std::vector<uint64_t>(8, 5), 4);
  EXPECT_EQ(s, (std::vector<Share>{{0, 2}, {2, 4}, {4, 6}, {6, 8}}));
}

TEST(SplitByWeight, BalancesEventsNotLocations) {
  // One heavy location (a master) and seven light ones: the master alone in one share.
  const std::vector<Share> s = splitByWeight({700, 100, 100, 100, 100, 100, 100, 100}, 2);
  EXPECT_EQ(s, (std::vector<Share>{{0, 1}, {1, 8}}));
}

TEST(SplitByWeight, MoreProcessesThanLocationsLeavesSomeEmpty) {
  const std::vector<Share> s = splitByWeight({1, 1}, 4);
  ASSERT_EQ(s.size(), 4u);
  size_t covered = 0;
  for (size_t p = 0; p < s.size(); ++p) {
    EXPECT_LE(s[p].begin, s[p].end);
    if (p > 0) {
      EXPECT_EQ(s[p].begin, s[p - 1].end);
    }
    covered += s[p].end - s[p].begin;
  }
  EXPECT_EQ(covered, 2u);
  EXPECT_EQ(s.back().end, 2u);
}

TEST(SplitByWeight, ZeroWeightsSplitByCount) {
  const std::vector<Share> s = splitByWeight(std::vector<uint64_t>(6, 0), 3);
  EXPECT_EQ(s, (std::vector<Share>{{0, 2}, {2, 4}, {4, 6}}));
}

TEST(LocationWeights, UnknownLocationsWeighTheMeanOfTheKnown) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const uint64_t group = b.locationGroup("rank 0", b.systemTreeNode("machine", "node"));
  for (LocationId id : {0, 1, 2}) b.location(id, "thread", group, LocationType::CpuThread, 0);
  EXPECT_EQ(locationWeights(defs, {{0, 10}, {2, 30}}), (std::vector<uint64_t>{10, 20, 30}));
  EXPECT_EQ(locationWeights(defs, {}), (std::vector<uint64_t>{1, 1, 1}));
}

}  // namespace
}  // namespace mtf::mpi
