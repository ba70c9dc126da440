// LaneTurns and runLanes: the sink sees the lanes' bundles in a fixed rotation whatever
// the threads' timing, a lane that finishes leaves the rotation, and a failure anywhere
// stops every lane and is reported as the first lane's own error.
#include "model/lane_turns.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "model/trace_stream.hpp"

namespace mtf {
namespace {

// Records each batch's label (the time of its first event); throws at batch `failAt`.
class RecordingSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event&) override {}
  void events(const SharedEventBatch& batch) override {
    if (seen.size() == failAt) throw std::runtime_error("sink failed");
    seen.push_back(batch->events[0].time);
  }
  void end() override {}
  std::vector<Tick> seen;
  size_t failAt = ~size_t{0};
};

SharedEventBatch labelled(Tick label) {
  auto batch = std::make_shared<EventBatch>();
  batch->events.resize(1);
  batch->events[0].time = label;
  batch->size = 1;
  return batch;
}

// Lane `lane` adds `counts[lane]` batches labelled 1000 * lane + i, pausing at random.
void readLabelled(LaneTurns& turns, size_t lane, const std::vector<int>& counts, unsigned seed) {
  std::mt19937 random(seed + static_cast<unsigned>(lane));
  for (int i = 0; i < counts[lane]; ++i) {
    if (random() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(random() % 200));
    turns.add(lane, labelled(1000 * lane + static_cast<Tick>(i)));
  }
}

// The order the rotation defines, computed directly.
std::vector<Tick> expectedRotation(const std::vector<int>& counts, int bundle) {
  std::vector<Tick> order;
  std::vector<int> next(counts.size(), 0);
  for (bool any = true; any;) {
    any = false;
    for (size_t lane = 0; lane < counts.size(); ++lane) {
      if (next[lane] > counts[lane]) continue;  // left the rotation
      const int stop = std::min(next[lane] + bundle, counts[lane]);
      for (int i = next[lane]; i < stop; ++i) order.push_back(1000 * lane + i);
      // A full bundle keeps the lane in; its last (short or empty) bundle takes it out.
      next[lane] = stop - next[lane] == bundle ? stop : counts[lane] + 1;
      any = true;
    }
  }
  return order;
}

TEST(LaneTurns, SinkSeesTheSameRotationWhateverTheTiming) {
  const std::vector<int> counts = {23, 9, 14};
  for (unsigned seed = 0; seed < 5; ++seed) {
    RecordingSink sink;
    uint64_t delivered = 0;
    LaneTurns turns(
        counts.size(), sink, [&](uint64_t n) { delivered += n; }, 4);
    runLanes(turns, counts.size(), [&](size_t lane) { readLabelled(turns, lane, counts, seed); });
    EXPECT_EQ(sink.seen, expectedRotation(counts, 4)) << "seed " << seed;
    EXPECT_EQ(delivered, 23u + 9u + 14u);
  }
}

TEST(LaneTurns, ALaneWithNothingToReadLeavesAtOnce) {
  RecordingSink sink;
  LaneTurns turns(2, sink, nullptr, 2);
  const std::vector<int> counts = {0, 5};
  runLanes(turns, 2, [&](size_t lane) { readLabelled(turns, lane, counts, 1); });
  EXPECT_EQ(sink.seen, (std::vector<Tick>{1000, 1001, 1002, 1003, 1004}));
}

TEST(LaneTurns, SinkErrorStopsEveryLane) {
  RecordingSink sink;
  sink.failAt = 5;
  LaneTurns turns(2, sink, nullptr, 2);
  const std::vector<int> counts = {50, 50};
  EXPECT_THROW(runLanes(turns, 2, [&](size_t lane) { readLabelled(turns, lane, counts, 3); }),
               std::runtime_error);
  EXPECT_EQ(sink.seen.size(), 5u);
}

TEST(LaneTurns, TheFirstLanesOwnErrorIsReported) {
  for (const size_t failing : {size_t{0}, size_t{1}}) {
    RecordingSink sink;
    LaneTurns turns(2, sink, nullptr, 2);
    try {
      runLanes(turns, 2, [&](size_t lane) {
        for (int i = 0; i < 40; ++i) {
          if (lane == failing && i == 7) throw std::logic_error("lane " + std::to_string(lane));
          turns.add(lane, labelled(i));
        }
      });
      FAIL() << "no error";
    } catch (const std::logic_error& e) {
      EXPECT_EQ(e.what(), "lane " + std::to_string(failing));
    }
  }
  RecordingSink sink;
  LaneTurns turns(2, sink, nullptr, 1);
  try {
    runLanes(turns, 2, [&](size_t lane) {
      turns.add(lane, labelled(lane));
      throw std::logic_error("lane " + std::to_string(lane));
    });
    FAIL() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "lane 0");  // both failed: lane 0's error, as one lane would meet
  }
}

}  // namespace
}  // namespace mtf
