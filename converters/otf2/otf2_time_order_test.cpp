// The OTF2 reader's global time order (for sinks that take it): every event once, in
// (time, location position) order, each location's in its own order; a bad event file
// is reported naming the location, or counted when lenient.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

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

class TimeOrderSink : public CollectingSink {
 public:
  bool takeTimeOrder() override {
    ++asked;
    return true;
  }
  int asked = 0;
};

class RealTraceTimeOrder : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceTimeOrder, EveryEventOnceInTimeThenLocationOrder) {
  const std::string trace = kTraces + GetParam();
  CollectingSink single;
  Otf2Reader(trace, {}).read(single);
  TimeOrderSink ordered;
  Otf2Reader(trace, {}).read(ordered);
  EXPECT_EQ(ordered.asked, 1);
  ASSERT_EQ(ordered.events.size(), single.events.size());
  EXPECT_EQ(eventsByLocation(ordered.events), eventsByLocation(single.events));
  std::map<LocationId, size_t> position;
  for (const LocationView& l : ordered.defs.locations()) position.emplace(l.id, position.size());
  for (size_t i = 1; i < ordered.events.size(); ++i) {
    const Event& a = ordered.events[i - 1];
    const Event& b = ordered.events[i];
    ASSERT_LE(a.time, b.time) << "event " << i;
    if (a.time == b.time) {
      ASSERT_LE(position[a.location], position[b.location]) << "event " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceTimeOrder, kSeveralRealTraces, traceTestName);

TEST(Otf2ReaderTimeOrder, BadEventFileIsReportedWithItsLocation) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces" / "1.evt", 300);
  try {
    TimeOrderSink sink;
    Otf2Reader(anchor, {}).read(sink);
    FAIL() << "no error for a truncated 1.evt";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("traces.otf2"), std::string::npos) << message;
    EXPECT_NE(message.find("location 1"), std::string::npos) << message;
  }
}

TEST(Otf2ReaderTimeOrder, LenientReadCountsTheUnreadableLocation) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces" / "1.evt", 300);
  Otf2Reader reader(anchor, {.lenient = true});
  TimeOrderSink sink;
  reader.read(sink);
  EXPECT_EQ(reader.unmodelled().at("OTF2 locations whose events could not all be read"), 1u);
  EXPECT_FALSE(eventsByLocation(sink.events)[0].empty());
}

}  // namespace
}  // namespace mtf::otf2
