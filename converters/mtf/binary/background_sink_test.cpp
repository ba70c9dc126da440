// BackgroundSink: the sink on the second thread sees every event, in order; its failures
// reach the caller.
#include "converters/mtf/binary/background_sink.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "compaction/test_support.hpp"

namespace mtf::mtfbin {
namespace {

using compaction::testing::CollectingSink;

TEST(BackgroundSink, SinkSeesEveryEventInOrder) {
  const auto t = compaction::testing::makeSyntheticTrace(3, 40, 11);
  CollectingSink direct, behind;
  compaction::testing::play(t, direct, /*interleave=*/true);
  {
    BackgroundSink background(behind, /*batchEvents=*/7, /*maxBatches=*/3);
    compaction::testing::play(t, background, /*interleave=*/true);
    EXPECT_TRUE(behind.ended);
  }
  EXPECT_GT(direct.events.size(), 100u);
  EXPECT_EQ(compaction::testing::firstDifference(behind.events, direct.events, t.defs), "");
}

// A reader's batches are queued as they are, single events copied; the order holds
// across both.
TEST(BackgroundSink, SharedBatchesAndSingleEventsKeepTheirOrder) {
  const auto t = compaction::testing::makeSyntheticTrace(3, 40, 14);
  CollectingSink behind;
  {
    BackgroundSink background(behind, /*batchEvents=*/5, /*maxBatches=*/2);
    background.begin(t.defs);
    EventBatcher batcher([&](const SharedEventBatch& b) { background.events(b); }, 6);
    for (size_t i = 0; i < t.events.size(); ++i) {
      if (i % 50 < 20) {  // single events, then a run through the batcher
        batcher.flush();
        background.event(t.events[i]);
      } else {
        batcher.add(t.events[i]);
      }
    }
    batcher.flush();
    background.end();
  }
  EXPECT_GT(t.events.size(), 100u);
  EXPECT_EQ(compaction::testing::firstDifference(behind.events, t.events, t.defs), "");
}

// Batches larger than the whole queue, and a stream that ends before the worker's wake
// threshold is reached: every event still arrives, in order.
TEST(BackgroundSink, LargeBatchesAndShortStreamsArriveWhole) {
  const auto t = compaction::testing::makeSyntheticTrace(2, 30, 15);
  for (size_t readerBatch : {size_t{3}, size_t{50}}) {
    for (size_t limit : {size_t{4}, t.events.size()}) {
      CollectingSink behind;
      BackgroundSink background(behind, /*batchEvents=*/8, /*maxBatches=*/2);
      background.begin(t.defs);
      EventBatcher batcher([&](const SharedEventBatch& b) { background.events(b); }, readerBatch);
      for (size_t i = 0; i < limit; ++i) batcher.add(t.events[i]);
      batcher.flush();
      background.end();
      const std::vector<Event> expected(t.events.begin(), t.events.begin() + limit);
      EXPECT_EQ(compaction::testing::firstDifference(behind.events, expected, t.defs), "")
          << "reader batch " << readerBatch << ", " << limit << " events";
    }
  }
}

class FailingSink : public CollectingSink {
 public:
  void event(const Event& e) override {
    if (events.size() == 50) throw std::runtime_error("analysis failed");
    CollectingSink::event(e);
  }
};

TEST(BackgroundSink, FailureReachesTheCaller) {
  const auto t = compaction::testing::makeSyntheticTrace(2, 40, 12);
  FailingSink failing;
  BackgroundSink background(failing, 8, 2);
  EXPECT_THROW(compaction::testing::play(t, background), std::runtime_error);
  EXPECT_FALSE(failing.ended);
}

TEST(BackgroundSink, DestroyedMidStreamStopsCleanly) {
  const auto t = compaction::testing::makeSyntheticTrace(2, 40, 13);
  CollectingSink sink;
  auto background = std::make_unique<BackgroundSink>(sink, 5, 2);
  background->begin(t.defs);
  for (size_t i = 0; i < 100 && i < t.events.size(); ++i) background->event(t.events[i]);
  background.reset();  // no end(): the worker stops, nothing hangs
  EXPECT_FALSE(sink.ended);
}

}  // namespace
}  // namespace mtf::mtfbin
