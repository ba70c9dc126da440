#include "tag/causal_paths.hpp"

#include <gtest/gtest.h>

#include "tag/test_trace.hpp"

namespace mtf::tag {
namespace {

using testing::SmallTrace;

std::vector<std::string> texts(const CallPaths& paths, const std::vector<PathId>& steps) {
  std::vector<std::string> out;
  for (PathId p : steps) out.push_back(paths.text(p));
  return out;
}

// Rank 0 runs iterations Allreduce, Send, [Bcast,] Allreduce ...: two distinct paths.
TEST(CausalPaths, DistinctSequencesBetweenTwoActivitiesAreCountedWithTheirTime) {
  SmallTrace t(1);
  Tick now = 0;
  t.enter(0, now, t.main);
  for (int i = 0; i < 5; ++i) {
    t.enter(0, now += 10, t.allreduce);
    t.leave(0, now += 1, t.allreduce);
    t.sendCall(0, now += 10, 0, 1, 8);
    if (i % 2 == 1) {
      t.enter(0, now += 10, t.bcast);
      t.leave(0, now += 1, t.bcast);
    }
  }
  t.leave(0, now += 10, t.main);
  TagBuilder b;
  CausalPaths paths(b.graph().paths, "MPI_Allreduce", "main/MPI_Allreduce");
  b.setObserver(&paths);
  t.feed(b);
  const std::vector<CausalPath> found = paths.results();
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].count, 2u);  // iterations 0 and 2 (4 ends at main's end: unfinished)
  EXPECT_EQ(
      texts(b.graph().paths, found[0].steps),
      (std::vector<std::string>{"main/MPI_Allreduce", "main/MPI_Send", "main/MPI_Allreduce"}));
  EXPECT_EQ(found[0].totalTicks, 2u * 21);
  EXPECT_EQ(found[1].count, 2u);
  EXPECT_EQ(found[1].steps.size(), 4u);
  EXPECT_EQ(found[1].totalTicks, 2u * 32);
  EXPECT_EQ(paths.unfinished(), 1u);
  EXPECT_EQ(found[0].ranks, std::vector<int64_t>{0});
}

TEST(CausalPaths, StartToEndIsTheWholeProcess) {
  SmallTrace t(2);
  for (LocationId r = 0; r < 2; ++r) {
    t.enter(r, 5, t.main);
    t.sendCall(r, 10, 1 - r, 1, 8);
    t.recvCall(r, 20, 1 - r, 1, 8);
    t.leave(r, 30, t.main);
  }
  TagBuilder b;
  CausalPaths paths(b.graph().paths, "START", "END");
  b.setObserver(&paths);
  t.feed(b);
  const std::vector<CausalPath> found = paths.results();
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].count, 2u);
  EXPECT_EQ(found[0].steps.size(), 4u);
  EXPECT_EQ(found[0].totalTicks, 2u * 25);
  EXPECT_EQ(found[0].ranks, (std::vector<int64_t>{0, 1}));
}

TEST(CausalPaths, OverlongPathsAreDroppedAndCounted) {
  SmallTrace t(1);
  for (Tick i = 0; i < 10; ++i) t.sendCall(0, 10 * i, 0, 1, 8);
  TagBuilder b;
  CausalPaths paths(b.graph().paths, "START", "END", 5);
  b.setObserver(&paths);
  t.feed(b);
  EXPECT_TRUE(paths.results().empty());
  EXPECT_EQ(paths.tooLong(), 1u);
}

}  // namespace
}  // namespace mtf::tag
