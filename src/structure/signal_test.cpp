#include "structure/signal.hpp"

#include <gtest/gtest.h>

#include "util/error.hpp"

namespace mtf::structure {
namespace {

TEST(TimeGrid, CoversTheSpanWithWholeTicks) {
  const TimeGrid g = TimeGrid::covering(100, 1099, 10);
  EXPECT_EQ(g.start, 100u);
  EXPECT_EQ(g.width, 100u);
  EXPECT_EQ(g.bins, 10u);
  EXPECT_EQ(g.binOf(100), 0u);
  EXPECT_EQ(g.binOf(1099), 9u);
  EXPECT_EQ(g.binOf(5000), 9u);                       // clamped
  const TimeGrid odd = TimeGrid::covering(0, 10, 4);  // 11 ticks: width 3, 4 bins
  EXPECT_EQ(odd.width, 3u);
  EXPECT_EQ(odd.bins, 4u);
  EXPECT_THROW(TimeGrid::covering(0, 10, 0), UsageError);
}

TEST(BinAccumulator, SpreadsIntervalsOverBins) {
  const TimeGrid g = TimeGrid::covering(0, 999, 10);
  BinAccumulator a(g);
  a.addInterval(50, 350, 1.0);  // half of bin 0, bins 1 and 2, half of bin 3
  a.addInterval(300, 310, 2.0);
  const std::vector<double> m = a.means();
  EXPECT_DOUBLE_EQ(m[0], 0.5);
  EXPECT_DOUBLE_EQ(m[1], 1.0);
  EXPECT_DOUBLE_EQ(m[2], 1.0);
  EXPECT_DOUBLE_EQ(m[3], 0.5 + 0.2);
  EXPECT_DOUBLE_EQ(m[4], 0.0);
}

TEST(SignalSpec, ParsesEveryKind) {
  EXPECT_EQ(parseSignalSpec("p2p").kind, SignalKind::PointToPoint);
  EXPECT_EQ(parseSignalSpec("region:solve").name, "solve");
  EXPECT_EQ(parseSignalSpec("metric:PAPI_TOT_INS").kind, SignalKind::Metric);
  EXPECT_EQ(signalName(parseSignalSpec("collective")), "collective");
  EXPECT_THROW(parseSignalSpec("region:"), UsageError);
  EXPECT_THROW(parseSignalSpec("bogus"), UsageError);
}

// Two locations: location 0 in MPI_Send 100-300, location 1 in MPI_Allreduce 200-400 and
// in "solve" 0-1000, one flush 500-700 on location 1, a metric stepping 0 -> 4 at 500.
TEST(SignalSink, CountsProcessesInCallsPerBin) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
  const Ref allreduce = b.region("MPI_Allreduce", RegionRole::CollAll2All, Paradigm::Mpi);
  const Ref solve = b.region("solve", RegionRole::Function, Paradigm::User);
  const Ref metric = b.metric("power", "W", 4);
  SignalSink sink({parseSignalSpec("p2p"), parseSignalSpec("collective"), parseSignalSpec("mpi"),
                   parseSignalSpec("region:solve"), parseSignalSpec("flush"),
                   parseSignalSpec("events"), parseSignalSpec("metric:power")},
                  TimeGrid::covering(0, 999, 10));
  sink.begin(defs);
  Event e;
  auto put = [&](LocationId loc, Tick t, EventKind k, std::initializer_list<uint64_t> f) {
    e.set(k, loc, t, f);
    sink.event(e);
  };
  put(1, 0, EventKind::Enter, {solve});
  put(0, 100, EventKind::Enter, {send});
  put(1, 200, EventKind::Enter, {allreduce});
  put(0, 300, EventKind::Leave, {send});
  put(1, 400, EventKind::Leave, {allreduce});
  put(1, 500, EventKind::BufferFlush, {700});
  put(1, 500, EventKind::Metric, {metric, 1, 4, 4});
  put(1, 1000, EventKind::Leave, {solve});
  sink.end();
  const std::vector<Signal> s = sink.signals();
  EXPECT_DOUBLE_EQ(s[0].samples[1], 1.0);
  EXPECT_DOUBLE_EQ(s[0].samples[3], 0.0);
  EXPECT_DOUBLE_EQ(s[1].samples[2], 1.0);
  EXPECT_DOUBLE_EQ(s[1].samples[1], 0.0);
  EXPECT_DOUBLE_EQ(s[2].samples[2], 2.0);  // both in MPI during 200-300
  EXPECT_DOUBLE_EQ(s[3].samples[9], 1.0);
  EXPECT_DOUBLE_EQ(s[4].samples[5], 1.0);
  EXPECT_DOUBLE_EQ(s[4].samples[7], 0.0);
  EXPECT_DOUBLE_EQ(s[5].samples[5], 2.0);  // the flush and the metric event
  EXPECT_DOUBLE_EQ(s[6].samples[4], 0.0);
  EXPECT_DOUBLE_EQ(s[6].samples[6], 4.0);
  EXPECT_EQ(sink.activeLocations(), 2u);
}

TEST(SignalSink, RefusesNamesTheTraceDoesNotDefine) {
  Definitions defs;
  DefinitionBuilder b(defs);
  b.region("solve", RegionRole::Function, Paradigm::User);
  b.metric("power", "W", 4);
  const TimeGrid grid = TimeGrid::covering(0, 99, 10);
  SignalSink region({parseSignalSpec("region:nope")}, grid);
  EXPECT_THROW(region.begin(defs), UsageError);
  SignalSink metric({parseSignalSpec("metric:nope")}, grid);
  EXPECT_THROW(metric.begin(defs), UsageError);
  SignalSink fine({parseSignalSpec("region:solve"), parseSignalSpec("metric:power")}, grid);
  EXPECT_NO_THROW(fine.begin(defs));
}

}  // namespace
}  // namespace mtf::structure
