// Messages between threads of one task (model/thread_messages.hpp, channel_order.hpp):
// the reader's attributes, the writer's matching, the round trip.
#include "model/thread_messages.hpp"

#include <gtest/gtest.h>

#include <random>

#include "converters/paraver/channel_order.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

TEST(ChannelOrder, InOrderRecordsShareTheDefault) {
  ChannelOrder order;
  ChannelOrder::State* first = order.admit({1, 2, 5}, 100, 300);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(order.admit({1, 2, 5}, 100, 300), first);  // equal times keep record order
  EXPECT_EQ(order.admit({1, 2, 5}, 150, 400), first);
  EXPECT_EQ(order.admit({1, 2, 5}, 160, 350), nullptr);  // overtakes: needs an id
  EXPECT_EQ(order.admit({1, 2, 5}, 90, 500), nullptr);   // sent earlier: needs an id
  EXPECT_NE(order.admit({1, 3, 5}, 10, 20), nullptr);    // another receiver thread
  EXPECT_NE(order.admit({1, 2, 6}, 10, 20), nullptr);    // another tag
  EXPECT_EQ(order.liveChannels(), 3u);
}

TEST(ChannelOrder, ForgetsAChannelOnceEveryHalfIsDelivered) {
  ChannelOrder order;
  ChannelOrder::State* state = order.admit({1, 2, 5}, 100, 300);
  order.admit({1, 2, 5}, 200, 400);
  for (int half = 0; half < 3; ++half) order.delivered(state);
  EXPECT_EQ(order.liveChannels(), 1u);
  order.delivered(state);
  EXPECT_EQ(order.liveChannels(), 0u);
  // Everything before was delivered: whatever the times, the next record comes after.
  EXPECT_NE(order.admit({1, 2, 5}, 10, 0), nullptr);
  order.delivered(nullptr);  // a record with an id: nothing to do
}

struct AttributeCounts {
  uint64_t peers = 0, ids = 0, messages = 0;
};

AttributeCounts countAttributes(const CollectSink& sink) {
  const ThreadMessageAttributes attributes(sink.defs_);
  AttributeCounts counts;
  std::map<uint64_t, int> halves;
  for (const Event& e : sink.events) {
    if (e.kind != EventKind::MpiSend && e.kind != EventKind::MpiRecv) continue;
    ++counts.messages;
    uint64_t value = 0;
    if (attributes.peerOf(e, value)) ++counts.peers;
    if (attributes.idOf(e, value)) {
      ++counts.ids;
      ++halves[value];
    }
  }
  for (const auto& [id, n] : halves) EXPECT_EQ(n, 2) << "message id " << id;
  return counts;
}

// Counted by hand from the .prv: a peer attribute where the partner is not its task's
// first thread, ids on the two overtaking records and the two of three received in reverse.
TEST(ThreadMessages, ReaderMarksOnlyWhatTheRanksDoNotSay) {
  CollectSink sink;
  ParaverReader(testing::kThreadMessages, {}).read(sink);
  const AttributeCounts counts = countAttributes(sink);
  EXPECT_EQ(counts.messages, 30u);
  EXPECT_EQ(counts.peers, 21u);
  EXPECT_EQ(counts.ids, 6u);
}

TEST(ThreadMessages, OrdinaryTracesGetNoneOfTheAttributes) {
  for (const std::string& trace : {testing::kLulesh, testing::kQsort}) {
    CollectSink sink;
    ParaverReader(trace, {}).read(sink);
    const AttributeCounts counts = countAttributes(sink);
    EXPECT_GT(counts.messages, 0u) << trace;
    EXPECT_EQ(counts.peers + counts.ids, 0u) << trace;
  }
}

std::vector<std::string> writeBack(const std::vector<Event>& events, const Definitions& defs,
                                   const TempDir& dir) {
  ParaverWriter writer(dir.file("back.prv"), {});
  writer.begin(defs);
  for (const Event& e : events) writer.event(e);
  writer.end();
  EXPECT_TRUE(writer.losses().empty());
  return testing::sortedRecords(dir.file("back.prv"));
}

// The writer's matching must not depend on how the locations' events interleave (an
// archive gives them location after location): any interleaving that keeps each
// location's order gives the same records.
TEST(ThreadMessages, RecordsComeBackWhateverTheInterleaving) {
  CollectSink sink;
  ParaverReader(testing::kThreadMessages, {}).read(sink);
  const auto expected = testing::sortedRecords(testing::kThreadMessages);
  TempDir dir;
  EXPECT_EQ(writeBack(sink.events, sink.defs_, dir), expected);
  std::map<LocationId, std::vector<Event>> byLocation;
  for (const Event& e : sink.events) byLocation[e.location].push_back(e);
  std::vector<Event> locationAfterLocation;
  for (auto it = byLocation.rbegin(); it != byLocation.rend(); ++it)
    locationAfterLocation.insert(locationAfterLocation.end(), it->second.begin(), it->second.end());
  EXPECT_EQ(writeBack(locationAfterLocation, sink.defs_, dir), expected);
  std::mt19937 random(28);
  for (int round = 0; round < 20; ++round) {
    std::map<LocationId, size_t> next;
    std::vector<LocationId> order;
    for (const auto& [location, events] : byLocation)
      order.insert(order.end(), events.size(), location);
    std::shuffle(order.begin(), order.end(), random);
    std::vector<Event> shuffled;
    for (LocationId location : order) shuffled.push_back(byLocation[location][next[location]++]);
    EXPECT_EQ(writeBack(shuffled, sink.defs_, dir), expected) << "round " << round;
  }
}

}  // namespace
}  // namespace mtf::paraver
