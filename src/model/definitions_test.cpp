#include "model/definitions.hpp"

#include <gtest/gtest.h>

namespace mtf {
namespace {

TEST(Definitions, BuilderInternsStringsAndIndexes) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref a = b.string("main");
  EXPECT_EQ(b.string("main"), a);
  EXPECT_NE(b.string("other"), a);
  const Ref r = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
  const RegionView view = defs.region(r);
  EXPECT_EQ(view.name, "MPI_Send");
  EXPECT_EQ(view.role, RegionRole::PointToPoint);
  EXPECT_EQ(view.paradigm, Paradigm::Mpi);
  EXPECT_EQ(defs.regionName(999), "");
}

TEST(Definitions, LocationsWithLargeIds) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const uint64_t node = b.systemTreeNode("machine", "node");
  const uint64_t g = b.locationGroup("rank 0", node);
  const LocationId big = uint64_t{1} << 37;
  b.location(big, "GPU stream", g, LocationType::Gpu, 12);
  const auto locs = defs.locations();
  ASSERT_EQ(locs.size(), 1u);
  EXPECT_EQ(locs[0].id, big);
  EXPECT_EQ(locs[0].type, LocationType::Gpu);
  EXPECT_EQ(locs[0].name, "GPU stream");
  EXPECT_NE(defs.find(DefKind::Location, big), nullptr);
}

TEST(Definitions, GroupMembers) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref g = b.group("world", 2, Paradigm::Mpi, {0, 1, 2, 3});
  EXPECT_EQ(defs.groupMembers(g), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(defs.count(DefKind::Group), 1u);
}

}  // namespace
}  // namespace mtf
