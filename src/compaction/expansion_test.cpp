// The fast expansion: flat node expansions, join plans, bulk column decoding and lanes
// must give exactly what the plain walk, joinEvent, next() and one thread give.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "compaction/event_split.hpp"
#include "compaction/expander.hpp"
#include "compaction/test_support.hpp"
#include "util/error.hpp"
#include "values/columns.hpp"

namespace mtf::compaction {
namespace {

using testing::CollectingSink;

std::shared_ptr<CompactModel> compact(const testing::SyntheticTrace& t, uint64_t chunkEvents) {
  Compactor c(CompactorOptions{chunkEvents, 6, 1});
  testing::play(t, c, /*interleave=*/true);
  auto model = std::make_shared<CompactModel>(std::move(c.model()));
  EXPECT_TRUE(model->check().empty());
  return model;
}

std::vector<ExpansionStep> walk(const CompactModel& m, NodeId root, const FlatExpansions* flat,
                                size_t block) {
  Expander expander(m, root, flat);
  std::vector<ExpansionStep> steps;
  std::vector<ExpansionStep> buffer(block);
  while (size_t n = expander.fill(buffer.data(), block))
    steps.insert(steps.end(), buffer.begin(), buffer.begin() + n);
  return steps;
}

bool sameSteps(const std::vector<ExpansionStep>& a, const std::vector<ExpansionStep>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].sig != b[i].sig || a[i].context != b[i].context) return false;
  return true;
}

TEST(Expansion, FlatExpansionsReplayTheWalk) {
  const auto model = compact(testing::makeSyntheticTrace(4, 80, 5), 1 << 16);
  const FlatExpansions flat(*model);
  const FlatExpansions tiny(*model, /*budget=*/6);  // most nodes not kept
  size_t kept = 0;
  for (NodeId id = 0; id < model->nodes.size(); ++id) kept += flat.of(id) != nullptr;
  EXPECT_GT(kept, 3u) << "the synthetic program has small repeated loop bodies";
  for (const LocationModel& l : model->locations) {
    const std::vector<ExpansionStep> plain = walk(*model, l.root, nullptr, 1);
    ASSERT_EQ(plain.size(), l.eventCount);
    for (size_t block : {1, 3, 64, 512}) {
      EXPECT_TRUE(sameSteps(walk(*model, l.root, &flat, block), plain)) << "block " << block;
      EXPECT_TRUE(sameSteps(walk(*model, l.root, &tiny, block), plain)) << "block " << block;
    }
  }
}

// joinPlanned (into any slot) and joinInPlace (into the plan's own event) join as joinEvent.
TEST(Expansion, JoinPlansJoinAsJoinEvent) {
  const auto t = testing::makeSyntheticTrace(4, 20, 8);
  const auto model = compact(t, 1 << 16);
  std::mt19937_64 random(3);
  for (const LocationModel& l : model->locations) {
    OwnRanks ranks(model->definitions), planRanks(model->definitions);
    for (const Signature& sig : model->signatures) {
      JoinPlan plan = planJoin(sig, l.location, planRanks);
      ASSERT_EQ(plan.valueCount, valueCountOf(sig));
      for (Tick time : {77, 78}) {  // joinInPlace twice: the first values must not stay
        std::vector<uint64_t> values(plan.valueCount);
        for (uint64_t& v : values) v = random() % 1000;
        Event expected, actual;
        actual.fields = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // a reused slot: leftovers must go
        actual.attributes.resize(3);
        joinEvent(sig, values.data(), l.location, time, ranks, expected);
        joinPlanned(plan, values.data(), l.location, time, planRanks, actual);
        EXPECT_EQ(actual, expected) << nameOf(sig.kind);
        EXPECT_EQ(joinInPlace(plan, values.data(), time, planRanks), expected) << nameOf(sig.kind);
      }
    }
  }
}

TEST(Expansion, BulkColumnDecodingDecodesAsNext) {
  std::mt19937_64 random(11);
  for (uint8_t mode : {0, 1}) {
    values::ColumnEncoder encoder(5000, mode);
    std::vector<uint32_t> contexts, counts;
    Tick time = 1000;
    for (int i = 0; i < 5000; ++i) {
      const uint32_t context = static_cast<uint32_t>(random() % 7);
      const uint64_t v[3] = {time + 5, random() % 50, uint64_t(i)};
      time += 10 + random() % 20;
      encoder.add(context, time, v, context % 4);
      contexts.push_back(context);
      counts.push_back(context % 4);
    }
    const values::ColumnChunk chunk = encoder.finish(0);
    values::ColumnDecoder one(chunk), bulk(chunk);
    uint64_t values[3], bulkValues[3 * 512];
    Tick times[512];
    for (size_t at = 0; at < contexts.size();) {
      const size_t n = std::min<size_t>(1 + random() % 300, contexts.size() - at);
      bulk.nextEvents(contexts.data() + at, counts.data() + at, n, times, bulkValues);
      const uint64_t* got = bulkValues;
      for (size_t i = 0; i < n; ++i, ++at) {
        ASSERT_EQ(one.next(contexts[at], values, counts[at]), times[i]) << "event " << at;
        for (uint32_t k = 0; k < counts[at]; ++k) ASSERT_EQ(*got++, values[k]);
      }
    }
    EXPECT_TRUE(bulk.finished());
    EXPECT_TRUE(one.finished());
  }
}

std::vector<Event> readAll(std::shared_ptr<const CompactModel> m, size_t lanes,
                           TimeWindow window = {}, std::vector<LocationId> only = {}) {
  ExpandOptions options;
  options.lanes = lanes;
  options.window = window;
  ModelSource source(std::move(m), options);
  source.selectLocations(std::move(only));
  CollectingSink sink;
  source.read(sink);
  return sink.events;
}

TEST(Expansion, LanesHandOnTheSameEventsInTheSameOrder) {
  const auto t = testing::makeSyntheticTrace(5, 60, 2);
  const auto model = compact(t, /*chunkEvents=*/9);  // many chunks: many units per lane
  ASSERT_GT(model->locations[0].columns.size(), 10u);
  const std::vector<Event> one = readAll(model, 1);
  EXPECT_EQ(one.size(), t.events.size());
  for (size_t lanes : {2, 3, 4}) {
    EXPECT_EQ(testing::firstDifference(readAll(model, lanes), one, t.defs), "") << lanes;
    const TimeWindow window{one[one.size() / 3].time, one[one.size() / 2].time};
    EXPECT_EQ(testing::firstDifference(readAll(model, lanes, window, {1, 3}),
                                       readAll(model, 1, window, {1, 3}), t.defs),
              "")
        << lanes;
  }
}

// A sink that fails after some events.
struct FailingSink : CollectingSink {
  void event(const Event& e) override {
    if (events.size() == 100) throw std::runtime_error("sink full");
    CollectingSink::event(e);
  }
};

// A sink that takes the decoder's blocks: keeps each event's shape, time and whole event.
class BlockSink : public CollectingSink {
 public:
  void eventBlock(const EventBlock& block) override {
    ++blocks;
    for (size_t i = 0; i < block.size(); ++i) {
      shapes.push_back(block.shape(i));
      times.push_back(block.time(i));
      events.push_back(block.event(i));
    }
  }
  bool takesEventBlocks() const override { return true; }
  size_t blocks = 0;
  std::vector<Event> shapes;
  std::vector<Tick> times;
};

// The fields of type Ref of `e` (the part of a shape that is the event's).
std::vector<uint64_t> refFields(const Event& e) {
  const KindSchema& schema = schemaOf(e.kind);
  std::vector<uint64_t> refs;
  for (size_t i = 0; i < e.fields.size(); ++i) {
    const size_t f =
        i < schema.fixedCount ? i : schema.fixedCount + (i - schema.fixedCount) % schema.groupSize;
    if (schema.fields[f].type == FieldType::Ref) refs.push_back(e.fields[i]);
  }
  return refs;
}

TEST(Expansion, BlocksHoldTheEventsTheirShapesAndTimes) {
  const auto t = testing::makeSyntheticTrace(5, 60, 4);
  const auto model = compact(t, /*chunkEvents=*/700);  // several chunks and blocks each
  const std::vector<Event> one = readAll(model, 1);
  for (size_t lanes : {1, 2, 3}) {
    ExpandOptions options;
    options.lanes = lanes;
    BlockSink sink;
    ModelSource(model, options).read(sink);
    EXPECT_GT(sink.blocks, model->locations.size()) << lanes;
    EXPECT_EQ(testing::firstDifference(sink.events, one, t.defs), "") << lanes;
    ASSERT_EQ(sink.shapes.size(), one.size());
    for (size_t i = 0; i < one.size(); ++i) {
      ASSERT_EQ(sink.shapes[i].kind, one[i].kind) << i;
      ASSERT_EQ(sink.shapes[i].location, one[i].location) << i;
      ASSERT_EQ(refFields(sink.shapes[i]), refFields(one[i])) << i;
      ASSERT_EQ(sink.times[i], one[i].time) << i;
    }
    // With a window, not every event of a block is handed on: single events.
    std::vector<Tick> sorted = sink.times;
    std::sort(sorted.begin(), sorted.end());
    options.window = TimeWindow{sorted[sorted.size() / 3], sorted[sorted.size() / 2]};
    BlockSink windowed;
    ModelSource(model, options).read(windowed);
    EXPECT_EQ(windowed.blocks, 0u);
    EXPECT_FALSE(windowed.events.empty());
    EXPECT_EQ(testing::firstDifference(windowed.events, readAll(model, 1, options.window), t.defs),
              "")
        << lanes;
  }
}

TEST(Expansion, ErrorsReachTheCallerInOrder) {
  const auto t = testing::makeSyntheticTrace(4, 60, 4);
  auto model = compact(t, 9);
  // A corrupt chunk in the middle of location 2: the events before it come, then the error.
  std::vector<ColumnChunk>& chunks = model->locations[2].columns;
  chunks[chunks.size() / 2].encoded.back() ^= 0x5a;
  chunks[chunks.size() / 2].encoded.resize(chunks[chunks.size() / 2].encoded.size() - 2);
  std::string firstMessage;
  size_t firstEvents = 0;
  for (size_t lanes : {1, 2, 3}) {
    ExpandOptions options;
    options.lanes = lanes;
    options.sourceName = "t.mtf";
    ModelSource source(model, options);
    CollectingSink sink;
    try {
      source.read(sink);
      ADD_FAILURE() << "no error with " << lanes << " lanes";
    } catch (const InputError& e) {
      if (lanes == 1) firstMessage = e.what(), firstEvents = sink.events.size();
      EXPECT_EQ(e.what(), firstMessage);
      EXPECT_EQ(sink.events.size(), firstEvents);
    }
    FailingSink failing;  // and a failing sink stops every lane
    EXPECT_THROW(ModelSource(model, options).read(failing), std::runtime_error);
  }
  const std::string place = "location " + std::to_string(model->locations[2].location) + ", event";
  EXPECT_NE(firstMessage.find(place), std::string::npos) << firstMessage;
}

}  // namespace
}  // namespace mtf::compaction
