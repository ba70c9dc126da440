#include "filter/selection.hpp"

#include <gtest/gtest.h>

#include "filter/selection_sink.hpp"
#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace mtf::filter {
namespace {

// Keeps what it is given.
struct Recorder : TraceSink {
  Definitions defs;
  std::vector<Event> events;
  bool ended = false;
  void begin(const Definitions& d) override { defs = d; }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ended = true; }
};

// Four ranks, each a process with two threads (ids 10r and 10r+1; the first is the rank);
// MPI_COMM_WORLD and a communicator of ranks 1 and 3.
struct SmallTrace {
  Definitions defs;
  Ref world = 0, odd = 0, main = 0, send = 0, compute = 0;
  SmallTrace() {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("node", "machine");
    std::vector<LocationId> ranks;
    for (uint64_t r = 0; r < 4; ++r) {
      const uint64_t g = b.locationGroup("MPI Rank " + std::to_string(r), node);
      b.location(10 * r, "Master thread", g);
      b.location(10 * r + 1, "Worker thread", g);
      ranks.push_back(10 * r);
    }
    world = defineMpiWorld(b, ranks);
    odd = defineMpiComm(b, "odd", {1, 3});
    main = b.region("main", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    compute = b.region("compute", RegionRole::Function, Paradigm::User);
  }
  Event ev(EventKind k, LocationId loc, Tick t, std::initializer_list<uint64_t> f) const {
    Event e;
    e.set(k, loc, t, f);
    return e;
  }
};

std::vector<Event> run(const SmallTrace& t, const SelectionOptions& o,
                       const std::vector<Event>& events, Recorder& out, LossReport& losses) {
  SelectionSink sink(out, resolveSelection(o, t.defs, "t.otf2"));
  sink.begin(t.defs);
  for (const Event& e : events) sink.event(e);
  sink.end();
  losses = sink.losses();
  return out.events;
}

TEST(Selection, RanksKeepTheirProcessesThreadsAndPruneTheDefinitions) {
  SmallTrace t;
  SelectionOptions o;
  o.ranks = "1,3";
  const Selection s = resolveSelection(o, t.defs, "t.otf2");
  ASSERT_TRUE(s.locations);
  EXPECT_EQ(*s.locations, (std::unordered_set<LocationId>{10, 11, 30, 31}));
  Recorder out;
  LossReport losses;
  run(t, o, {}, out, losses);
  EXPECT_EQ(out.defs.locations().size(), 4u);
  EXPECT_EQ(out.defs.count(DefKind::LocationGroup), 2u);
  const RankMap ranks(out.defs);
  EXPECT_EQ(ranks.worldSize(), 2u);
  EXPECT_EQ(ranks.worldRank(30), 1);
  EXPECT_EQ(ranks.locationOf(t.odd, 1, 10), 30u);  // rank 1 of "odd" is still world rank 3
  EXPECT_EQ(ranks.locationOf(t.world, 1, 10), 30u);
}

TEST(Selection, MessagesAreRenumberedOrCountedWhenThePartnerIsNotKept) {
  SmallTrace t;
  SelectionOptions o;
  o.ranks = "1,3";
  const std::vector<Event> in = {
      t.ev(EventKind::MpiSend, 10, 1, {3, t.world, 7, 8}),  // rank 1 -> 3: kept, to rank 1
      t.ev(EventKind::MpiSend, 10, 2, {0, t.world, 7, 8}),  // rank 1 -> 0: lost
      t.ev(EventKind::MpiRecv, 30, 3, {0, t.odd, 7, 8}),    // rank 3 <- odd rank 0 (1)
      t.ev(EventKind::MpiRecv, 20, 4, {1, t.world, 7, 8}),  // rank 2: not selected
      t.ev(EventKind::MpiCollectiveEnd, 30, 5, {1, t.world, 0, 4, 4}),   // root 0: gone
      t.ev(EventKind::MpiCollectiveEnd, 30, 6, {1, t.world, 3, 4, 4})};  // root 3 -> 1
  Recorder out;
  LossReport losses;
  const auto kept = run(t, o, in, out, losses);
  ASSERT_EQ(kept.size(), 4u);
  EXPECT_EQ(kept[0].fields[0], 1u);
  EXPECT_EQ(kept[1].fields[0], 0u);  // "odd" keeps both its members
  EXPECT_EQ(kept[2].fields[2], 0xFFFFFFFFu);
  EXPECT_EQ(kept[3].fields[2], 1u);
  EXPECT_EQ(losses.size(), 2u);
  EXPECT_EQ(losses.begin()->second, 1u);
}

TEST(Selection, LocationsByIdAndByNameIntersectWithRanks) {
  SmallTrace t;
  SelectionOptions o;
  o.locations = "Worker thread";
  EXPECT_EQ(resolveSelection(o, t.defs, "t").locations->size(), 4u);
  o.ranks = "0-1";
  EXPECT_EQ(*resolveSelection(o, t.defs, "t").locations, (std::unordered_set<LocationId>{1, 11}));
  o.ranks = "MPI Rank 2";
  o.locations = "20-21";
  EXPECT_EQ(resolveSelection(o, t.defs, "t").locations->size(), 2u);
}

TEST(Selection, UnknownRanksLocationsAndKindsAreErrors) {
  SmallTrace t;
  SelectionOptions o;
  o.ranks = "2-4";
  EXPECT_THROW(resolveSelection(o, t.defs, "t"), InputError);
  o.ranks = "MPI Rank 9";
  EXPECT_THROW(resolveSelection(o, t.defs, "t"), InputError);
  o.ranks.clear();
  o.locations = "5";
  EXPECT_THROW(resolveSelection(o, t.defs, "t"), InputError);
  o.locations = "Helper thread";
  EXPECT_THROW(resolveSelection(o, t.defs, "t"), InputError);
  o.locations.clear();
  o.kinds = "Enter,MpiSnd";
  try {
    resolveSelection(o, t.defs, "t");
    FAIL() << "no error for a bad kind";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("MpiIsendComplete"), std::string::npos) << e.what();
  }
}

TEST(Selection, KindsKeepPairsTogether) {
  const auto kinds = parseKinds("Enter,MpiCollectiveEnd", "--kinds");
  EXPECT_EQ(kinds,
            (std::vector<EventKind>{EventKind::Enter, EventKind::Leave, EventKind::MpiCollectiveEnd,
                                    EventKind::MpiCollectiveBegin}));
}

// main { MPI_Send { send } compute { send } }
std::vector<Event> nestedCalls(const SmallTrace& t) {
  return {t.ev(EventKind::Enter, 0, 1, {t.main}),
          t.ev(EventKind::Enter, 0, 2, {t.send}),
          t.ev(EventKind::MpiSend, 0, 3, {1, t.world, 0, 4}),
          t.ev(EventKind::Leave, 0, 4, {t.send}),
          t.ev(EventKind::Enter, 0, 5, {t.compute}),
          t.ev(EventKind::MpiSend, 0, 6, {1, t.world, 0, 4}),
          t.ev(EventKind::Leave, 0, 7, {t.compute}),
          t.ev(EventKind::Leave, 0, 8, {t.main}),
          t.ev(EventKind::MpiRecv, 10, 9, {0, t.world, 0, 4}),
          t.ev(EventKind::MpiRecv, 10, 10, {0, t.world, 0, 4})};
}

std::string kindsOf(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events) out += std::string(nameOf(e.kind)).substr(0, 5) + " ";
  return out;
}

TEST(Selection, RegionsDropCallsButKeepWhatLiesInside) {
  SmallTrace t;
  SelectionOptions o;
  o.regions = {"MPI_*"};
  Recorder out;
  LossReport losses;
  const auto kept = run(t, o, nestedCalls(t), out, losses);
  EXPECT_EQ(kindsOf(kept), "Enter MpiSe Leave MpiSe MpiRe MpiRe ");
  EXPECT_TRUE(losses.empty());
}

TEST(Selection, RegionContentsFollowTheirCalls) {
  SmallTrace t;
  SelectionOptions o;
  o.regions = {"MPI_*"};
  o.regionContents = true;
  Recorder out;
  LossReport losses;
  auto kept = run(t, o, nestedCalls(t), out, losses);
  EXPECT_EQ(kindsOf(kept), "Enter MpiSe Leave ");  // the receives lie in no MPI_ call
  EXPECT_EQ(losses.begin()->second, 1u);           // the first send lost its receive
  o.regions.clear();
  o.excludeRegions = {"compute"};
  Recorder out2;
  kept = run(t, o, nestedCalls(t), out2, losses);
  EXPECT_EQ(kindsOf(kept), "Enter Enter MpiSe Leave Leave MpiRe MpiRe ");
  EXPECT_EQ(losses.begin()->second, 1u);  // the second receive lost its send
}

TEST(Selection, ExcludedKindsAndTheirMessagePartners) {
  SmallTrace t;
  SelectionOptions o;
  o.excludeKinds = "MpiRecv,Enter";
  Recorder out;
  LossReport losses;
  const auto kept = run(t, o, nestedCalls(t), out, losses);
  EXPECT_EQ(kindsOf(kept), "MpiSe MpiSe ");
  ASSERT_EQ(losses.size(), 1u);
  EXPECT_EQ(losses.begin()->second, 2u);
}

}  // namespace
}  // namespace mtf::filter
