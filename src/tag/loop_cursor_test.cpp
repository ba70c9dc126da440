#include "tag/loop_cursor.hpp"

#include <gtest/gtest.h>

#include <map>

#include "tag/tag_builder.hpp"
#include "tag/test_trace.hpp"

namespace mtf::tag {
namespace {

using nlr::eventKey;
using nlr::loopKey;

std::string step(LoopCursor& cursor) {
  std::vector<LoopBoundary> crossed;
  if (!cursor.next(crossed)) return "end";
  std::string out;
  for (const LoopBoundary& b : crossed) out += (b.entry ? "+" : "-") + b.loop + " ";
  return out;
}

TEST(LoopCursor, NamesEachLoopByItsPlaceAndReportsEntriesAndExits) {
  nlr::LoopModel m;
  m.bodies = {{eventKey(3)}, {eventKey(2), loopKey(0, 2)}};
  m.top = {eventKey(0), loopKey(1, 3), eventKey(1)};  // e0 (e2 e3 e3) x3 e1
  LoopCursor c(m);
  EXPECT_EQ(step(c), "");
  EXPECT_EQ(step(c), "+L1 ");
  EXPECT_EQ(step(c), "+L1.1 ");
  EXPECT_EQ(step(c), "");
  for (int iteration = 0; iteration < 2; ++iteration) {
    EXPECT_EQ(step(c), "-L1.1 ");
    EXPECT_EQ(step(c), "+L1.1 ");
    EXPECT_EQ(step(c), "");
  }
  EXPECT_EQ(step(c), "-L1.1 -L1 ");
  std::vector<LoopBoundary> rest;
  EXPECT_TRUE(c.finish(rest));
  EXPECT_TRUE(rest.empty());
  EXPECT_EQ(step(c), "end");
}

TEST(LoopCursor, LoopsThatEndWithTheStreamAreLeftAtTheEnd) {
  nlr::LoopModel m;
  m.bodies = {{eventKey(1)}};
  m.top = {eventKey(0), loopKey(0, 2)};
  LoopCursor c(m);
  for (int i = 0; i < 3; ++i) step(c);
  std::vector<LoopBoundary> rest;
  EXPECT_TRUE(c.finish(rest));
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_FALSE(rest[0].entry);
  EXPECT_EQ(rest[0].loop, "L1");
  LoopCursor early(m);
  step(early);
  step(early);
  EXPECT_FALSE(early.finish(rest)) << "one event of the nest was never seen";
}

// Enter main, three MPI_Send calls (3 events each), Leave main: the calls are a loop.
testing::SmallTrace threeSends() {
  testing::SmallTrace t(1);
  t.enter(0, 0, t.main);
  for (Tick i = 0; i < 3; ++i) t.sendCall(0, 10 + 10 * i, 0, 1, 8);
  t.leave(0, 50, t.main);
  return t;
}

TEST(TagBuilderLoops, MarkersStandAroundTheLoopsCalls) {
  const testing::SmallTrace t = threeSends();
  nlr::LoopModel m;
  m.bodies = {{eventKey(1), eventKey(2), eventKey(3)}};
  m.top = {eventKey(0), loopKey(0, 3), eventKey(4)};
  TagBuilder b;
  b.setLoops({{0, m}});
  t.feed(b);
  const ActivityGraph& g = b.graph();
  std::map<std::string, NodeId> byPath;
  for (NodeId n = 0; n < g.nodes.size(); ++n) byPath[g.paths.text(g.nodes[n].path)] = n;
  ASSERT_TRUE(byPath.count("main/LOOP_ENTRY L1") && byPath.count("main/LOOP_EXIT L1"));
  const NodeId entry = byPath["main/LOOP_ENTRY L1"], exit = byPath["main/LOOP_EXIT L1"];
  const NodeId send = byPath["main/MPI_Send"];
  EXPECT_EQ(g.nodes[entry].kind, NodeKind::Marker);
  EXPECT_EQ(g.nodes[entry].profile.count, 1u);
  EXPECT_EQ(g.nodes[send].profile.count, 3u);
  EXPECT_EQ(g.edges.count({byPath["START"], entry, EdgeKind::Process}), 1u);
  EXPECT_EQ(g.edges.count({entry, send, EdgeKind::Process}), 1u);
  EXPECT_EQ(g.edges.count({send, exit, EdgeKind::Process}), 1u);
  // The computation after the last call (it ends at 32) up to main's Leave (50).
  EXPECT_EQ(g.edges.at({send, exit, EdgeKind::Process}).profile.total, 50u - 32u);
  EXPECT_EQ(b.loopMismatches(), 0u);
}

TEST(TagBuilderLoops, ANestThatDoesNotMatchTheEventsIsDroppedAndCounted) {
  const testing::SmallTrace t = threeSends();
  nlr::LoopModel m;
  m.bodies = {{eventKey(1), eventKey(2), eventKey(3)}};
  m.top = {eventKey(0), loopKey(0, 2)};  // two iterations: three events short
  TagBuilder b;
  b.setLoops({{0, m}});
  t.feed(b);
  EXPECT_EQ(b.loopMismatches(), 1u);
  EXPECT_EQ(b.graph().nodes.size(), 4u);  // START, the entry marker, MPI_Send, END: no exit
}

}  // namespace
}  // namespace mtf::tag
