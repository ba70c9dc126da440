#include "tag/ptag.hpp"

#include <gtest/gtest.h>

#include "tag/tag_builder.hpp"
#include "tag/test_trace.hpp"

namespace mtf::tag {
namespace {

using testing::SmallTrace;

TEST(RankRanges, ConsecutiveRanksBecomeRanges) {
  EXPECT_EQ(rankRanges({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(rankRanges({1, 2, 3, 5}), "1-3,5");
  EXPECT_EQ(rankRanges({4}), "4");
  EXPECT_EQ(rankRanges({}), "");
  EXPECT_EQ(rankRanges({0, 2, 4, 5}), "0,2,4-5");
}

// A ring: every rank sends to the next and receives from the previous.
ActivityGraph ring(int ranks) {
  SmallTrace t(ranks);
  for (int r = 0; r < ranks; ++r) {
    t.enter(r, 0, t.main);
    t.sendCall(r, 10 + r, (r + 1) % ranks, 1, 8);
    t.recvCall(r, 20 + r, (r + ranks - 1) % ranks, 1, 8);
    t.leave(r, 40, t.main);
  }
  TagBuilder b;
  t.feed(b);
  return std::move(b.graph());
}

TEST(Ptag, UnfoldedKeepsEveryProcesssNodes) {
  const ActivityGraph g = ring(4);
  const Ptag p = buildPtag(g, false);
  EXPECT_EQ(p.nodes.size(), 4u * 4);  // START, send, recv, END per rank
  for (size_t i = 1; i < p.nodes.size(); ++i)
    EXPECT_LE(*p.nodes[i - 1].location, *p.nodes[i].location) << "nodes by location";
  uint64_t messages = 0;
  for (const PtagEdge& e : p.edges)
    if (e.kind == EdgeKind::Message) messages += e.data.count;
  EXPECT_EQ(messages, 4u);
}

TEST(Ptag, FoldingMergesCallPathsOverRanks) {
  const ActivityGraph g = ring(5);
  const Ptag p = buildPtag(g, true);
  ASSERT_EQ(p.nodes.size(), 4u);
  for (const PtagNode& n : p.nodes) {
    EXPECT_EQ(rankRanges(n.ranks), "0-4");
    EXPECT_FALSE(n.location.has_value());
  }
  const PtagNode& send = p.nodes[1];
  EXPECT_EQ(g.paths.text(send.path), "main/MPI_Send");
  EXPECT_EQ(send.profile.count, 5u);
  EXPECT_EQ(send.profile.total, 10u);
  size_t messageEdges = 0;
  for (const PtagEdge& e : p.edges) {
    if (e.kind != EdgeKind::Message) continue;
    ++messageEdges;
    EXPECT_EQ(e.data.count, 5u);
    EXPECT_EQ(e.data.bytes, 40u);
  }
  EXPECT_EQ(messageEdges, 1u);
}

}  // namespace
}  // namespace mtf::tag
