// The cut stage on hand-made streams: a time window (calls open at the cut entered again
// and left, messages cut counted, shifted times) and the iteration cut's bounds (split
// where the call depth is lowest between two model events).
#include "filter/time_window.hpp"

#include <gtest/gtest.h>

#include "filter/iteration_cut.hpp"
#include "filter/time_spec.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::filter {
namespace {

struct Collect : TraceSink {
  void begin(const Definitions& d) override { clock = d.clock; }
  void event(const Event& e) override { events.push_back(e); }
  void end() override {}
  std::vector<Event> events;
  ClockProperties clock;
};

class Stream : public ::testing::Test {
 public:
  Stream() : b(defs) {
    main = b.region("main", RegionRole::Function, Paradigm::User);
    iteration = b.region("iteration", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    world = defineMpiWorld(b, {0, 1});
  }
  void put(TraceSink& s, LocationId l, Tick t, EventKind k, std::initializer_list<uint64_t> f) {
    Event e;
    e.set(k, l, t, f);
    s.event(e);
  }
  Definitions defs;
  DefinitionBuilder b;
  Ref main, iteration, send, recv, world;
};

TEST_F(Stream, WindowReentersOpenCallsAndCountsCutMessages) {
  Collect out;
  auto cut = timeWindowCut(out, {100, 200, false});
  cut->begin(defs);
  put(*cut, 0, 0, EventKind::Enter, {main});
  put(*cut, 0, 50, EventKind::Enter, {send});
  put(*cut, 0, 60, EventKind::MpiSend, {1, world, 1, 8});  // received inside: cut
  put(*cut, 0, 70, EventKind::Leave, {send});
  put(*cut, 0, 150, EventKind::Enter, {send});
  put(*cut, 0, 160, EventKind::MpiSend, {1, world, 1, 8});  // received after: cut
  put(*cut, 0, 170, EventKind::Leave, {send});
  put(*cut, 0, 300, EventKind::Leave, {main});
  put(*cut, 1, 10, EventKind::Enter, {main});
  put(*cut, 1, 120, EventKind::Enter, {recv});
  put(*cut, 1, 130, EventKind::MpiRecv, {0, world, 1, 8});
  put(*cut, 1, 140, EventKind::Leave, {recv});
  put(*cut, 1, 250, EventKind::MpiRecv, {0, world, 1, 8});
  cut->end();
  // L0: Enter main (again, at 100), the second send call, Leave main at 200.
  // L1: Enter main at 100, the receive call, Leave main at 200.
  ASSERT_EQ(out.events.size(), 10u);
  EXPECT_EQ(out.events[0].kind, EventKind::Enter);
  EXPECT_EQ(out.events[0].time, 100u);
  EXPECT_EQ(out.events[4].kind, EventKind::Leave);
  EXPECT_EQ(out.events[4].time, 200u);
  EXPECT_EQ(cut->eventsWritten(), 10u);
  EXPECT_EQ(cut->messagesCut(), 2u);  // the receive of the first send, the second send
  EXPECT_EQ(cut->losses().at("messages whose partner lies outside the cut"), 2u);
  EXPECT_EQ(out.clock.globalOffset, 100u);
  EXPECT_EQ(out.clock.traceLength, 100u);
}

TEST_F(Stream, ShiftedWindowStartsAtZero) {
  Collect out;
  auto cut = timeWindowCut(out, {100, 200, true});
  cut->begin(defs);
  put(*cut, 0, 0, EventKind::Enter, {main});
  put(*cut, 0, 150, EventKind::Enter, {send});
  put(*cut, 0, 170, EventKind::Leave, {send});
  cut->end();
  ASSERT_EQ(out.events.size(), 4u);
  EXPECT_EQ(out.events[0].time, 0u);
  EXPECT_EQ(out.events[1].time, 50u);
  EXPECT_EQ(out.events[3].time, 100u);
  EXPECT_EQ(out.clock.globalOffset, 0u);
}

TEST_F(Stream, EmptyWindowStillBalancesEveryOpenCall) {
  Collect out;
  auto cut = timeWindowCut(out, {100, 200, false});
  cut->begin(defs);
  put(*cut, 0, 0, EventKind::Enter, {main});
  put(*cut, 0, 10, EventKind::Enter, {iteration});
  put(*cut, 0, 500, EventKind::Leave, {iteration});
  cut->end();
  ASSERT_EQ(out.events.size(), 4u);
  EXPECT_EQ(out.events[1].fields[0], iteration);
  EXPECT_EQ(out.events[2].fields[0], iteration);
  EXPECT_EQ(out.events[2].kind, EventKind::Leave);
  EXPECT_EQ(cut->messagesCut(), 0u);
}

// Rank 0: main { iteration { MPI_Send { send } } x3 }; the send is the model's event.
void threeIterations(Stream& s, TraceSink& sink, LocationId l) {
  Tick t = 0;
  s.put(sink, l, t++, EventKind::Enter, {s.main});
  for (int i = 0; i < 3; ++i) {
    s.put(sink, l, t++, EventKind::Enter, {s.iteration});
    s.put(sink, l, t++, EventKind::Enter, {s.send});
    s.put(sink, l, t++, EventKind::MpiSend, {1, s.world, 1, 8});
    s.put(sink, l, t++, EventKind::Leave, {s.send});
    s.put(sink, l, t++, EventKind::Leave, {s.iteration});
  }
  s.put(sink, l, t++, EventKind::Leave, {s.main});
}

TEST_F(Stream, IterationBoundsSplitWhereTheCallDepthIsLowest) {
  // Iteration 2 is model position 1: events 6..10 (Enter iteration .. Leave iteration).
  IterationBounds bounds({{0, PositionRange{1, 1}}});
  bounds.begin(defs);
  threeIterations(*this, bounds, 0);
  bounds.end();
  const auto ranges = bounds.ranges("t");
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges.at(0).first, 6u);
  EXPECT_EQ(ranges.at(0).end, 11u);

  Collect out;
  CutSink cut(out, std::make_unique<IterationRule>(ranges));
  cut.begin(defs);
  threeIterations(*this, cut, 0);
  cut.end();
  // main entered again at the iteration's first event and left at its last.
  ASSERT_EQ(out.events.size(), 7u);
  EXPECT_EQ(out.events[0].fields[0], main);
  EXPECT_EQ(out.events[0].time, 6u);
  EXPECT_EQ(out.events[1].fields[0], iteration);
  EXPECT_EQ(out.events[6].kind, EventKind::Leave);
  EXPECT_EQ(out.events[6].fields[0], main);
  EXPECT_EQ(out.events[6].time, 10u);
}

TEST_F(Stream, IterationBoundsRefuseATraceShorterThanTheModel) {
  IterationBounds bounds({{0, PositionRange{2, 5}}});
  bounds.begin(defs);
  threeIterations(*this, bounds, 0);
  bounds.end();
  EXPECT_THROW(bounds.ranges("t"), InputError);
}

TEST(Iterations, ParsedAndRefused) {
  EXPECT_EQ(parseIterations("3-7", "--iterations").first, 3u);
  EXPECT_EQ(parseIterations("3-7", "--iterations").last, 7u);
  EXPECT_EQ(parseIterations("4", "--iterations").last, 4u);
  for (const char* bad : {"", "0", "7-3", "a-b", "3-", "-3", "1-2-3"})
    EXPECT_THROW(parseIterations(bad, "--iterations"), TimeSpecError) << bad;
}

}  // namespace
}  // namespace mtf::filter
