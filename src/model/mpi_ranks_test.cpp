#include "model/mpi_ranks.hpp"

#include <gtest/gtest.h>

namespace mtf {
namespace {

TEST(RankMap, WorldAndSubCommunicator) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const std::vector<LocationId> locs = {100, uint64_t{1} << 37, 7};
  const Ref world = defineMpiWorld(b, locs);
  const Ref sub = defineMpiComm(b, "odd", {1, 2}, world);
  const RankMap map(defs);
  EXPECT_EQ(map.worldSize(), 3u);
  EXPECT_EQ(map.locationOf(world, 1, 7), uint64_t{1} << 37);
  EXPECT_EQ(map.locationOf(sub, 0, 7), uint64_t{1} << 37);
  EXPECT_EQ(map.locationOf(sub, 1, 7), 7u);
  EXPECT_EQ(map.locationOf(sub, 2, 7), kUndefinedId);
  EXPECT_EQ(map.worldRank(7), 2);
  EXPECT_EQ(map.worldRank(5), -1);
  EXPECT_EQ(map.rankIn(sub, 7), 1);
  EXPECT_EQ(map.rankIn(sub, 100), -1);
}

// Score-P defines MPI_COMM_SELF, and every communicator a split leaves with one member,
// over a COMM_SELF group: rank 0 in it is the location that uses it (issue 17).
TEST(RankMap, SelfCommunicatorIsTheCallingLocation) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const std::vector<LocationId> locs = {100, 101, 102};
  const Ref world = defineMpiWorld(b, locs);
  const Ref self = defineMpiSelfComm(b, "", defineMpiSelfGroup(b), world);
  const RankMap map(defs);
  EXPECT_TRUE(map.isSelf(self));
  EXPECT_EQ(map.members(self), nullptr);
  EXPECT_EQ(map.locationOf(self, 0, 102), 102u);
  EXPECT_EQ(map.worldRankOf(self, 0, 101), 1);
  EXPECT_EQ(map.worldRankOf(self, 1, 101), -1);
  EXPECT_EQ(map.worldRankOf(self, 0, 999), -1);  // not an MPI rank
  EXPECT_EQ(map.rankIn(self, 100), 0);
  EXPECT_EQ(map.worldRankOf(world, 2, 100), 2);
  EXPECT_EQ(map.worldRankOf(12345, 0, 100), -1);  // undefined communicator
}

}  // namespace
}  // namespace mtf
