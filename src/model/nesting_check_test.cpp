// Enter/leave nesting check: balanced streams, calls never left, stray and crossed leaves.
#include "model/nesting_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace mtf {
namespace {

// Feeds "E3" (enter region 3), "L3" (leave region 3) or "S" (a send) on `location`.
// The events of `steps` (as feed() takes them) on `location`.
std::vector<Event> eventsOf(LocationId location, const std::vector<std::string>& steps) {
  std::vector<Event> events;
  Tick t = 0;
  for (const std::string& s : steps) {
    Event& e = events.emplace_back();
    const uint64_t region = s.size() > 1 ? std::stoull(s.substr(1)) : 0;
    const EventKind kind = s[0] == 'E'   ? EventKind::Enter
                           : s[0] == 'L' ? EventKind::Leave
                                         : EventKind::MpiSend;
    if (kind == EventKind::MpiSend)
      e.set(kind, location, ++t, {1, 0, 0, 8});
    else
      e.set(kind, location, ++t, {region});
  }
  return events;
}

void feed(NestingCheck& check, LocationId location, const std::vector<std::string>& steps) {
  for (const Event& e : eventsOf(location, steps)) check.event(e);
}

// A decoder's block over whole events (each its own shape).
class WholeBlock final : public EventBlock {
 public:
  WholeBlock(const std::vector<const Event*>& shapes, const std::vector<Tick>& times)
      : EventBlock(shapes.data(), times.data(), shapes.size()) {}
  const Event& event(size_t i) const override { return shape(i); }
};

// The same steps as blocks of `blockSize` events.
void feedBlocks(NestingCheck& check, LocationId location, const std::vector<std::string>& steps,
                size_t blockSize) {
  const std::vector<Event> events = eventsOf(location, steps);
  for (size_t from = 0; from < events.size(); from += blockSize) {
    std::vector<const Event*> shapes;
    std::vector<Tick> times;
    for (size_t i = from; i < std::min(events.size(), from + blockSize); ++i)
      shapes.push_back(&events[i]), times.push_back(events[i].time);
    check.eventBlock(WholeBlock(shapes, times));
  }
}

TEST(NestingCheck, BlocksCountAsSingleEvents) {
  const std::vector<std::string> a = {"L4", "E1", "E2", "S", "L1", "E5", "E6", "L6"};
  const std::vector<std::string> b = {"E1", "E2", "L2", "E2", "L2", "L1", "L3"};
  NestingCheck single, blocks;
  feed(single, 0, a);
  feed(single, 3, b);
  feed(single, 0, {"L5", "L2"});
  EXPECT_TRUE(blocks.takesEventBlocks());
  feedBlocks(blocks, 0, a, 3);
  feedBlocks(blocks, 3, b, 2);
  feedBlocks(blocks, 0, {"L5", "L2"}, 5);
  single.end();
  blocks.end();
  const NestingSummary &s = single.summary(), &t = blocks.summary();
  EXPECT_FALSE(s.balanced());
  EXPECT_EQ(t.maxDepth, s.maxDepth);
  EXPECT_EQ(t.callsNeverLeft, s.callsNeverLeft);
  EXPECT_EQ(t.unmatchedLeaves, s.unmatchedLeaves);
  EXPECT_EQ(t.mismatchedLeaves, s.mismatchedLeaves);
  EXPECT_EQ(t.unbalancedLocations, s.unbalancedLocations);
  EXPECT_EQ(blocks.describe(10), single.describe(10));
}

TEST(NestingCheck, BalancedStreamsAreBalanced) {
  NestingCheck check;
  feed(check, 0, {"E1", "E2", "S", "L2", "E2", "L2", "L1"});
  feed(check, 1, {"E1", "L1"});
  check.end();
  EXPECT_TRUE(check.summary().balanced());
  EXPECT_EQ(check.summary().maxDepth, 2u);
  EXPECT_EQ(check.summary().unbalancedLocations, 0u);
  EXPECT_TRUE(check.describe(10).empty());
}

TEST(NestingCheck, CountsCallsNeverLeftStrayAndCrossedLeaves) {
  NestingCheck check;
  feed(check, 0, {"E1", "E2", "E3"});        // three calls never left
  feed(check, 7, {"L4", "E1", "E2", "L1"});  // a stray leave, then a crossed one
  feed(check, 9, {"E1", "L1"});
  check.end();
  const NestingSummary& s = check.summary();
  EXPECT_EQ(s.callsNeverLeft, 3u + 1u);
  EXPECT_EQ(s.unmatchedLeaves, 1u);
  EXPECT_EQ(s.mismatchedLeaves, 1u);
  EXPECT_EQ(s.unbalancedLocations, 2u);
  EXPECT_EQ(s.maxDepth, 3u);
  const auto lines = check.describe(10);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "location 0: 3 calls never left");
  EXPECT_EQ(lines[1],
            "location 7: 1 calls never left, 1 leaves without an enter, 1 leaves of another "
            "region than the open enter");
  EXPECT_EQ(check.describe(1).back(), "... and more locations");
}

// Where every file of the input's format ends with calls open (Paraver), they are left out
// of the description: only the locations with stray or crossed leaves remain.
TEST(NestingCheck, DescribesWithoutCallsNeverLeft) {
  NestingCheck check;
  feed(check, 0, {"E1", "E2", "E3"});
  feed(check, 7, {"L4", "E1", "E2", "L1"});
  feed(check, 8, {"E1", "E2", "L1", "L1"});
  check.end();
  const auto lines = check.describe(10, false);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(
      lines[0],
      "location 7: 1 leaves without an enter, 1 leaves of another region than the open enter");
  EXPECT_EQ(lines[1], "location 8: 1 leaves of another region than the open enter");
  EXPECT_EQ(check.summary().callsNeverLeft, 3u + 1u);  // still counted
}

// The open regions live in a buffer that grows and keeps stale entries past the depth:
// after deep calls return, a shallower crossed Leave must still be compared with the
// region actually open at its depth.
TEST(NestingCheck, RegionsAreComparedAtTheirDepthAfterDeepCalls) {
  NestingCheck check;
  std::vector<std::string> steps;
  for (int i = 0; i < 100; ++i) steps.push_back("E" + std::to_string(i));
  for (int i = 99; i >= 1; --i) steps.push_back("L" + std::to_string(i));
  steps.push_back("E7");
  steps.push_back("L7");
  steps.push_back("L5");  // crossed: region 0 is open
  feed(check, 3, steps);
  check.end();
  EXPECT_EQ(check.summary().maxDepth, 100u);
  EXPECT_EQ(check.summary().mismatchedLeaves, 1u);
  EXPECT_EQ(check.summary().unmatchedLeaves, 0u);
  EXPECT_EQ(check.summary().callsNeverLeft, 0u);
}

TEST(NestingCheck, VeryDeepNestingKeepsCounting) {
  NestingCheck check;
  std::vector<std::string> enters(300000, "E5");
  feed(check, 2, enters);
  check.end();
  EXPECT_EQ(check.summary().maxDepth, 300000u);
  EXPECT_EQ(check.summary().callsNeverLeft, 300000u);
}

}  // namespace
}  // namespace mtf
