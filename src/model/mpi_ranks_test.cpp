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
  EXPECT_EQ(map.locationOf(world, 1), uint64_t{1} << 37);
  EXPECT_EQ(map.locationOf(sub, 0), uint64_t{1} << 37);
  EXPECT_EQ(map.locationOf(sub, 1), 7u);
  EXPECT_EQ(map.locationOf(sub, 2), kUndefinedId);
  EXPECT_EQ(map.worldRank(7), 2);
  EXPECT_EQ(map.worldRank(5), -1);
  EXPECT_EQ(map.rankIn(sub, 7), 1);
  EXPECT_EQ(map.rankIn(sub, 100), -1);
}

}  // namespace
}  // namespace mtf
