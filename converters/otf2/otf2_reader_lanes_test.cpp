// The OTF2 reader's two reading lanes (for sinks that prefer batches): every location's
// events arrive complete and in order, the interleaving of the two halves is the same on
// every run whatever the threads' timing, and a bad event file in either half is
// reported naming the file and the location.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <thread>

#include "converters/otf2/otf2_reader.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::copyPingPong;
using testing::eventsByLocation;
using testing::kSeveralRealTraces;
using testing::kTraces;
using testing::TempDir;
using testing::traceTestName;
namespace fs = std::filesystem;

// Keeps copies of the batches' events; with a seed, pauses at random between batches.
class BatchSink : public TraceSink {
 public:
  explicit BatchSink(unsigned seed = 0) : random_(seed), pause_(seed != 0) {}
  void begin(const Definitions&) override {}
  void event(const Event& e) override { seen.push_back(e); }
  void events(const SharedEventBatch& batch) override {
    if (pause_ && random_() % 8 == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(random_() % 300));
    for (size_t i = 0; i < batch->size; ++i) seen.push_back(batch->events[i]);
  }
  bool prefersBatches() const override { return true; }
  void end() override { ++ends; }
  std::vector<Event> seen;
  int ends = 0;

 private:
  std::mt19937 random_;
  bool pause_;
};

// Each lane opens the archive with a reader handle of its own, which must apply the same
// mapping tables and clock offsets (local definitions) as one reader does.
class RealTraceLanes : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceLanes, EachLocationReadsTheSameAsWithOneLane) {
  const std::string trace = kTraces + GetParam();
  CollectingSink single;
  Otf2Reader(trace, {}).read(single);
  BatchSink batched;
  Otf2Reader(trace, {}).read(batched);
  EXPECT_EQ(eventsByLocation(batched.seen), eventsByLocation(single.events));
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceLanes, kSeveralRealTraces, traceTestName);

TEST(Otf2ReaderLanes, EveryLocationsEventsArriveCompleteAndInOrder) {
  const std::string trace = kTraces + "fastotf2-mi300";
  CollectingSink single;
  Otf2Reader(trace, {}).read(single);
  BatchSink batched;
  Otf2Reader(trace, {}).read(batched);
  EXPECT_EQ(batched.ends, 1);
  ASSERT_EQ(batched.seen.size(), single.events.size());
  EXPECT_EQ(eventsByLocation(batched.seen), eventsByLocation(single.events));
  // Both lanes did read: some location's events resume after another location's.
  std::map<LocationId, size_t> runs;
  for (size_t i = 0; i < batched.seen.size(); ++i)
    if (i == 0 || batched.seen[i].location != batched.seen[i - 1].location)
      ++runs[batched.seen[i].location];
  EXPECT_TRUE(std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.second > 1; }));
}

TEST(Otf2ReaderLanes, TheInterleavingIsTheSameOnEveryRun) {
  const std::string trace = kTraces + "fastotf2-mi300";
  std::vector<std::pair<LocationId, Tick>> first;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    BatchSink sink(seed);
    Otf2Reader(trace, {}).read(sink);
    std::vector<std::pair<LocationId, Tick>> order;
    for (const Event& e : sink.seen) order.emplace_back(e.location, e.time);
    if (first.empty())
      first = order;
    else
      EXPECT_EQ(order, first) << "seed " << seed;
  }
}

// The two-location ping-pong: lane 0 reads 0.evt, lane 1 reads 1.evt.
TEST(Otf2ReaderLanes, BadEventFileInEitherLaneIsReportedWithItsLocation) {
  for (const std::string location : {"0", "1"}) {
    TempDir tmp;
    const fs::path anchor = copyPingPong(tmp.path() / "a");
    fs::resize_file(tmp.path() / "a" / "traces" / (location + ".evt"), 300);
    try {
      BatchSink sink;
      Otf2Reader(anchor, {}).read(sink);
      FAIL() << "no error for a truncated " << location << ".evt";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("traces.otf2"), std::string::npos) << message;
      EXPECT_NE(message.find("location " + location), std::string::npos) << message;
    }
  }
}

TEST(Otf2ReaderLanes, LenientReadOfBothLanesCountsTheUnreadableLocation) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces" / "1.evt", 300);
  Otf2Reader reader(anchor, {.lenient = true});
  BatchSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.ends, 1);
  EXPECT_EQ(reader.unmodelled().at("OTF2 locations whose events could not all be read"), 1u);
  EXPECT_FALSE(eventsByLocation(sink.seen)[0].empty());
}

}  // namespace
}  // namespace mtf::otf2
