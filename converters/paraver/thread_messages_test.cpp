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

// Each location's events in order, the locations interleaved at random.
std::vector<Event> interleave(const std::vector<Event>& events, std::mt19937& random) {
  std::map<LocationId, std::vector<Event>> byLocation;
  for (const Event& e : events) byLocation[e.location].push_back(e);
  std::vector<LocationId> order;
  for (const auto& [location, own] : byLocation) order.insert(order.end(), own.size(), location);
  std::shuffle(order.begin(), order.end(), random);
  std::map<LocationId, size_t> next;
  std::vector<Event> shuffled;
  for (LocationId location : order) shuffled.push_back(byLocation[location][next[location]++]);
  return shuffled;
}

// The writer's matching must not depend on how the locations' events interleave (an
// archive gives them location after location): any interleaving that keeps each
// location's order gives the same records.
void expectRecordsWhateverTheInterleaving(const std::string& prv, int rounds) {
  CollectSink sink;
  ParaverReader(prv, {}).read(sink);
  const auto expected = testing::sortedRecords(prv);
  TempDir dir;
  EXPECT_EQ(writeBack(sink.events, sink.defs_, dir), expected);
  std::vector<Event> locationAfterLocation = sink.events;
  std::stable_sort(locationAfterLocation.begin(), locationAfterLocation.end(),
                   [](const Event& a, const Event& b) { return a.location > b.location; });
  EXPECT_EQ(writeBack(locationAfterLocation, sink.defs_, dir), expected);
  std::mt19937 random(28);
  for (int round = 0; round < rounds; ++round)
    EXPECT_EQ(writeBack(interleave(sink.events, random), sink.defs_, dir), expected)
        << "round " << round;
}

TEST(ThreadMessages, RecordsComeBackWhateverTheInterleaving) {
  expectRecordsWhateverTheInterleaving(testing::kThreadMessages, 20);
}

// Like the Dimemas trace, larger and random: 40 threads in one task and 2 in
// another, 3000 messages between random threads on 3 tags, a tenth received at logical
// time 0, some at physical time 0, many overtaking, many at equal times.
std::string randomThreadTrace(const TempDir& dir) {
  std::mt19937 random(134);
  constexpr uint32_t kThreads = 40, kOther = 2;
  std::vector<std::pair<uint64_t, std::string>> records;
  for (int i = 0; i < 3000; ++i) {
    const uint32_t from = random() % (kThreads + kOther), to = random() % (kThreads + kOther);
    const auto place = [&](uint32_t t) {
      const bool first = t < kThreads;
      return std::to_string(t + 1) + ":1:" + (first ? "1:" : "2:") +
             std::to_string(first ? t + 1 : t - kThreads + 1);
    };
    const uint64_t send = 10 * (random() % 2000);
    uint64_t receive = send + 10 * (random() % 50);
    if (random() % 50 == 0) receive = 0;
    const uint64_t logical = random() % 10 == 0 ? 0 : receive;
    records.emplace_back(send, "3:" + place(from) + ":" + std::to_string(send) + ":" +
                                   std::to_string(send) + ":" + place(to) + ":" +
                                   std::to_string(logical) + ":" + std::to_string(receive) + ":" +
                                   std::to_string(i) + ":" + std::to_string(random() % 3));
  }
  std::stable_sort(records.begin(), records.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text = "#Paraver (26/11/2026 at 11:00):30000_ns:1(" +
                     std::to_string(kThreads + kOther) + "):1:2(" + std::to_string(kThreads) +
                     ":1," + std::to_string(kOther) + ":1),0\n";
  for (const auto& [time, line] : records) text += line + "\n";
  dir.write("random.prv", text);
  return dir.file("random.prv");
}

TEST(ThreadMessages, RandomThreadToThreadTraceComesBack) {
  TempDir dir;
  const std::string prv = randomThreadTrace(dir);
  CollectSink sink;
  ParaverReader(prv, {}).read(sink);
  const AttributeCounts counts = countAttributes(sink);
  EXPECT_EQ(counts.messages, 6000u);
  EXPECT_GT(counts.ids, 0u);
  EXPECT_LT(counts.ids, counts.messages);  // most follow the default matching
  expectRecordsWhateverTheInterleaving(prv, 3);
}

}  // namespace
}  // namespace mtf::paraver
