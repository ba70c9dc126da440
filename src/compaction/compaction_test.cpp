// Tree building, repeat collapsing, hash-consing, and lossless decompaction.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "compaction/event_split.hpp"
#include "compaction/expander.hpp"
#include "compaction/test_support.hpp"

namespace mtf::compaction {
namespace {

using testing::CollectingSink;
using testing::makeSyntheticTrace;
using testing::play;

std::shared_ptr<CompactModel> compact(const testing::SyntheticTrace& t, bool interleave = false,
                                      uint64_t chunkEvents = 1 << 16) {
  Compactor c(CompactorOptions{chunkEvents, 6, 1});
  play(t, c, interleave);
  return std::make_shared<CompactModel>(std::move(c.model()));
}

std::vector<Event> expandAll(std::shared_ptr<const CompactModel> m) {
  ModelSource source(std::move(m));
  CollectingSink sink;
  source.read(sink);
  EXPECT_TRUE(sink.begun && sink.ended);
  return sink.events;
}

TEST(Compaction, EveryKindRoundTripsExactly) {
  const auto t = makeSyntheticTrace(4, 30, 1);
  const auto model = compact(t);
  EXPECT_TRUE(model->check().empty()) << model->check().front();
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs), "");
}

TEST(Compaction, PreviousDeltaPredictionRoundTrips) {
  const auto t = makeSyntheticTrace(3, 40, 21);
  Compactor c(CompactorOptions{100, 6, 0});
  play(t, c);
  auto model = std::make_shared<CompactModel>(std::move(c.model()));
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs), "");
}

TEST(Compaction, InterleavedLocationsAndSmallChunksRoundTrip) {
  const auto t = makeSyntheticTrace(3, 50, 2);
  const auto model = compact(t, /*interleave=*/true, /*chunkEvents=*/7);
  ASSERT_TRUE(model->check().empty()) << model->check().front();
  EXPECT_GT(model->locations[0].columns.size(), 10u);
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs),
            "");  // expanded location after location, as generated
}

struct SunkChunk {
  LocationId location;
  uint64_t firstEvent;
  std::vector<uint8_t> encoded;
  bool operator==(const SunkChunk&) const = default;
};

std::vector<SunkChunk> sinkChunks(const testing::SyntheticTrace& t, bool background) {
  std::vector<SunkChunk> chunks;
  CompactorOptions options{7, 6, 1};
  options.backgroundCompression = background;
  Compactor c(options, [&](LocationId l, ColumnChunk&& chunk) {
    chunks.push_back({l, chunk.firstEvent, std::move(chunk.encoded)});
  });
  play(t, c, /*interleave=*/true);
  return chunks;
}

// A budget of buffered events finishes every location's chunk early: no chunk holds more
// than the budget allows, and everything still round-trips (with and without the
// compression thread), including the model kept in memory.
TEST(Compaction, BufferedEventBudgetBoundsChunksAndRoundTrips) {
  const auto t = makeSyntheticTrace(4, 60, 9);
  for (bool background : {false, true}) {
    CompactorOptions options{1 << 16, 6, 1};
    options.backgroundCompression = background;
    options.bufferedEventBudget = 50;
    std::vector<ColumnChunk> sunk;
    std::map<LocationId, uint64_t> nextFirst;
    Compactor c(options, [&](LocationId l, ColumnChunk&& chunk) {
      EXPECT_EQ(chunk.firstEvent, nextFirst[l]) << "chunks of a location are contiguous";
      nextFirst[l] = chunk.firstEvent + chunk.eventCount;
      sunk.push_back(std::move(chunk));
    });
    play(t, c, /*interleave=*/true);
    ASSERT_GT(sunk.size(), 8u);
    for (const ColumnChunk& chunk : sunk) EXPECT_LE(chunk.eventCount, 51u);
    uint64_t total = 0;
    for (const auto& [location, n] : nextFirst) total += n;
    EXPECT_EQ(total, t.events.size());
  }
  CompactorOptions options{1 << 16, 6, 1};
  options.bufferedEventBudget = 50;
  Compactor kept(options);
  play(t, kept, /*interleave=*/true);
  auto model = std::make_shared<CompactModel>(std::move(kept.model()));
  ASSERT_TRUE(model->check().empty()) << model->check().front();
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs), "");
}

// The budget is exceeded when the buffered events first number budget + 1: every chunk
// of a single location is then that long (but the last).
TEST(Compaction, BufferedEventBudgetFlushesAtBudgetPlusOne) {
  const auto t = makeSyntheticTrace(1, 60, 9);
  for (bool background : {false, true}) {
    CompactorOptions options{1 << 16, 6, 1};
    options.backgroundCompression = background;
    options.bufferedEventBudget = 50;
    std::vector<uint64_t> lengths;
    Compactor c(options,
                [&](LocationId, ColumnChunk&& chunk) { lengths.push_back(chunk.eventCount); });
    play(t, c);
    ASSERT_EQ(lengths.size(), (t.events.size() + 50) / 51) << background;
    for (size_t i = 0; i + 1 < lengths.size(); ++i) EXPECT_EQ(lengths[i], 51u) << i;
  }
}

// The compression thread hands on the same bytes in the same order as compressing inline.
TEST(Compaction, BackgroundCompressionIsDeterministic) {
  const auto t = makeSyntheticTrace(3, 60, 5);
  const std::vector<SunkChunk> inline_ = sinkChunks(t, false);
  EXPECT_GT(inline_.size(), 30u);
  for (int run = 0; run < 3; ++run) EXPECT_TRUE(sinkChunks(t, true) == inline_) << run;
}

TEST(Compaction, ChunkSinkFailureReachesTheCaller) {
  const auto t = makeSyntheticTrace(2, 40, 6);
  Compactor c(CompactorOptions{5, 6, 1},
              [](LocationId, ColumnChunk&&) { throw std::runtime_error("disk full"); });
  EXPECT_THROW(play(t, c), std::runtime_error);
}

TEST(Compaction, BuildsCallTreeWithMpiEventsInsideTheirCall) {
  const auto t = makeSyntheticTrace(2, 1, 3, /*everyKind=*/false);
  const auto model = compact(t);
  const Node& root = model->node(model->locations[0].root);
  ASSERT_EQ(root.kind, NodeKind::Sequence);
  ASSERT_EQ(root.edges.size(), 1u);  // main
  const Node& main = model->node(root.edges[0].child);
  EXPECT_EQ(main.kind, NodeKind::Call);
  EXPECT_NE(main.leaveSig, kNoSig);
  // Irecv call, Isend call, compute x3, Waitall call, Barrier call
  ASSERT_EQ(main.edges.size(), 5u);
  const Node& irecv = model->node(main.edges[0].child);
  ASSERT_EQ(irecv.edges.size(), 1u);
  EXPECT_EQ(model->node(irecv.edges[0].child).kind, NodeKind::PointToPoint);
  EXPECT_EQ(main.edges[2].repetitions, 3u);                      // compute, collapsed
  EXPECT_EQ(model->node(main.edges[4].child).edges.size(), 2u);  // collective begin/end
}

// The compactor gives each edge its type itself (DagBuilder::appendTyped): a call of the
// region of its parent call is Recursive, any other call or leaf Regular.
TEST(Compaction, CallsOfTheirParentsRegionGetRecursiveEdges) {
  testing::SyntheticTrace t;
  DefinitionBuilder b{t.defs};
  const uint64_t group = b.locationGroup("rank 0", b.systemTreeNode("node", "node"));
  b.location(7, "thread", group);
  const Ref f = b.region("f", RegionRole::Function, Paradigm::User);
  const Ref g = b.region("g", RegionRole::Function, Paradigm::User);
  Tick time = 100;
  auto add = [&](EventKind kind, Ref region) {
    Event e;
    e.set(kind, 7, time += 10, {region});
    t.events.push_back(e);
  };
  // f { f { g {} } g {} } : the inner f is Recursive, both g's Regular.
  for (const auto& [kind, region] : std::vector<std::pair<EventKind, Ref>>{{EventKind::Enter, f},
                                                                           {EventKind::Enter, f},
                                                                           {EventKind::Enter, g},
                                                                           {EventKind::Leave, g},
                                                                           {EventKind::Leave, f},
                                                                           {EventKind::Enter, g},
                                                                           {EventKind::Leave, g},
                                                                           {EventKind::Leave, f}})
    add(kind, region);
  const auto model = compact(t);
  ASSERT_TRUE(model->check().empty()) << model->check().front();
  const Node& outer = model->node(model->node(model->locations[0].root).edges[0].child);
  ASSERT_EQ(outer.edges.size(), 2u);
  EXPECT_EQ(outer.edges[0].type, EdgeType::Recursive);
  EXPECT_EQ(outer.edges[1].type, EdgeType::Regular);
  const Node& inner = model->node(outer.edges[0].child);
  ASSERT_EQ(inner.edges.size(), 1u);
  EXPECT_EQ(inner.edges[0].type, EdgeType::Regular);
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs), "");
}

TEST(Compaction, LoopBodiesCollapseIntoOneRepeatedSequence) {
  const auto t = makeSyntheticTrace(2, 249, 4, /*everyKind=*/false);
  const auto model = compact(t);
  const Node& main = model->node(model->node(model->locations[0].root).edges[0].child);
  ASSERT_EQ(main.edges.size(), 2u);  // the loop, the barrier
  EXPECT_EQ(main.edges[0].type, EdgeType::Sequence);
  EXPECT_EQ(main.edges[0].repetitions, 249u);
  EXPECT_EQ(model->node(main.edges[0].child).edges.size(), 4u);
}

TEST(Compaction, StructureDoesNotGrowWithIterations) {
  const auto small = compact(makeSyntheticTrace(4, 249, 5, false));
  const auto large = compact(makeSyntheticTrace(4, 2490, 5, false));
  EXPECT_EQ(small->nodes.size(), large->nodes.size());
  EXPECT_EQ(small->totalFigures().dagEdges, large->totalFigures().dagEdges);
  EXPECT_GT(large->totalFigures().treeNodes, 9 * small->totalFigures().treeNodes);
}

TEST(Compaction, RanksOfAnSpmdProgramShareTheirSubtrees) {
  // With partners relative to the own rank, the inner ranks of the ring (neighbours at
  // -1 and +1) have the same DAG; ranks 0 and 7 (neighbours at +7 and -7) differ.
  const auto model = compact(makeSyntheticTrace(8, 20, 6, false));
  ASSERT_EQ(model->locations.size(), 8u);
  for (size_t r = 2; r < 7; ++r) EXPECT_EQ(model->locations[r].root, model->locations[1].root);
  EXPECT_NE(model->locations[0].root, model->locations[1].root);
  const CompactionFigures total = model->totalFigures();
  EXPECT_LT(total.dagNodes, 3 * model->figures(1).dagNodes);
  EXPECT_EQ(total.messagesBefore, 8u * 20 * 2);
  EXPECT_EQ(total.messagesAfter, 4u);  // recv from -1 and +7, send to +1 and -7
  EXPECT_GT(total.compactionRate(), 90.0);
}

TEST(Compaction, UnbalancedEventsRoundTrip) {
  testing::SyntheticTrace t = makeSyntheticTrace(1, 0, 7, false);
  const Ref region = 0;
  const LocationId loc = t.events.front().location;
  t.events.clear();
  Event e;
  e.set(EventKind::Leave, loc, 1, {region});  // leave without enter
  t.events.push_back(e);
  e.set(EventKind::Leave, loc, 2, {region});
  t.events.push_back(e);
  e.set(EventKind::Enter, loc, 3, {region + 1});
  t.events.push_back(e);
  e.set(EventKind::Leave, loc, 4, {region + 2});  // leaves another region than entered
  t.events.push_back(e);
  e.set(EventKind::Enter, loc, 5, {region});  // cut mid-call
  t.events.push_back(e);
  e.set(EventKind::Enter, loc, 6, {region});
  t.events.push_back(e);
  const auto model = compact(t);
  ASSERT_TRUE(model->check().empty());
  EXPECT_EQ(testing::firstDifference(expandAll(model), t.events, t.defs), "");
}

// The nesting the compactor reports (CompactorOptions::nesting, so that `mtf convert` to
// .mtf checks it once) is what a NestingCheck fed the same events finds, per location.
void expectNestingAsNestingCheck(const testing::SyntheticTrace& t, bool interleave) {
  NestingCheck direct;
  play(t, direct, interleave);
  NestingCheck viaCompactor;
  CompactorOptions options{1 << 16, 6, 1};
  options.nesting = &viaCompactor;
  Compactor c(options);
  play(t, c, interleave);
  const NestingSummary& want = direct.summary();
  const NestingSummary& got = viaCompactor.summary();
  EXPECT_EQ(got.maxDepth, want.maxDepth);
  EXPECT_EQ(got.callsNeverLeft, want.callsNeverLeft);
  EXPECT_EQ(got.unmatchedLeaves, want.unmatchedLeaves);
  EXPECT_EQ(got.mismatchedLeaves, want.mismatchedLeaves);
  EXPECT_EQ(got.unbalancedLocations, want.unbalancedLocations);
  EXPECT_EQ(viaCompactor.describe(100), direct.describe(100));
}

TEST(Compaction, ReportsTheNestingANestingCheckFinds) {
  const auto spmd = makeSyntheticTrace(4, 30, 3);
  expectNestingAsNestingCheck(spmd, false);
  expectNestingAsNestingCheck(spmd, true);
  testing::SyntheticTrace t = makeSyntheticTrace(2, 0, 7, false);
  const LocationId a = t.events.front().location, b = t.events.back().location;
  ASSERT_NE(a, b);
  t.events.clear();
  Event e;
  Tick time = 0;
  auto add = [&](EventKind kind, LocationId loc, uint64_t region) {
    e.set(kind, loc, ++time, {region});
    t.events.push_back(e);
  };
  add(EventKind::Leave, a, 0);  // leave without enter
  add(EventKind::Enter, a, 1);
  add(EventKind::Enter, a, 2);
  add(EventKind::Leave, a, 3);  // leaves another region than entered
  add(EventKind::Leave, a, 1);
  add(EventKind::Enter, b, 1);  // cut mid-call, twice
  add(EventKind::Enter, b, 2);
  NestingCheck direct;
  play(t, direct);
  ASSERT_EQ(direct.summary().unbalancedLocations, 2u);  // the case is unbalanced
  ASSERT_EQ(direct.summary().mismatchedLeaves, 1u);
  expectNestingAsNestingCheck(t, false);
}

TEST(Compaction, TimeWindowAndSkipGiveTheSameEvents) {
  const auto t = makeSyntheticTrace(2, 100, 8, false);
  const auto model = compact(t, false, 64);
  ASSERT_TRUE(model->check().empty());
  const Tick from = t.events[500].time, to = t.events[900].time;
  ModelSource source(model, ExpandOptions{"", TimeWindow{from, to}, nullptr});
  CollectingSink sink;
  source.read(sink);
  std::vector<Event> expected;
  for (const Event& e : t.events)
    if (e.time >= from && e.time <= to) expected.push_back(e);
  EXPECT_EQ(testing::firstDifference(sink.events, expected, t.defs), "");
  EXPECT_LT(sink.events.size(), t.events.size() / 2);
}

TEST(Compaction, CheckFindsBrokenReferences) {
  auto model = compact(makeSyntheticTrace(2, 5, 9, false));
  model->nodes.back().edges.push_back(Edge{static_cast<NodeId>(model->nodes.size()), 1});
  EXPECT_FALSE(model->check().empty());
  auto other = compact(makeSyntheticTrace(2, 5, 9, false));
  other->locations[0].eventCount += 1;
  EXPECT_FALSE(other->check().empty());
}

// splitIfSignature accepts exactly the signature splitEvent gives, with the same values;
// splitEvent's value buffer keeps its room when an event has fewer values.
TEST(Compaction, SplitIfSignatureAgreesWithSplitEvent) {
  const auto t = makeSyntheticTrace(4, 30, 1);
  OwnRanks ranks(t.defs);
  std::vector<Signature> seen;
  std::vector<uint64_t> values, checked;
  for (const Event& e : t.events) {
    Signature sig;
    const size_t count = splitEvent(e, ranks, sig, values);
    ASSERT_LE(count, values.size());
    ASSERT_EQ(splitIfSignature(e, ranks, sig, checked), count);
    EXPECT_TRUE(std::equal(values.begin(), values.begin() + static_cast<ptrdiff_t>(count),
                           checked.begin()));
    // Some other signatures met before: accepted only if equal to the event's.
    for (size_t i = seen.size(), tried = 0; i-- > 0 && tried < 8; ++tried)
      EXPECT_EQ(splitIfSignature(e, ranks, seen[i], checked) != kNotThisSignature, seen[i] == sig);
    if (std::find(seen.begin(), seen.end(), sig) == seen.end()) seen.push_back(sig);
  }
  EXPECT_GT(seen.size(), 20u);
}

// The first event of `kind` in `t`, split into `sig` and `values`; the signature check must
// accept it with the same number of values. Null (and a failure) when `t` has none.
const Event* splitFirstOf(const testing::SyntheticTrace& t, OwnRanks& ranks, EventKind kind,
                          Signature& sig, std::vector<uint64_t>& values) {
  const auto it = std::find_if(t.events.begin(), t.events.end(),
                               [kind](const Event& e) { return e.kind == kind; });
  if (it == t.events.end()) {
    ADD_FAILURE() << "no event of the kind in the synthetic trace";
    return nullptr;
  }
  const size_t count = splitEvent(*it, ranks, sig, values);
  EXPECT_EQ(splitIfSignature(*it, ranks, sig, values), count);
  return &*it;
}

// Kinds without a group take a path of their own: an event that differs only in its rank
// field is not of the signature; a wrong field count still throws.
TEST(Compaction, SplitIfSignatureChecksRankAndFieldCount) {
  const auto t = makeSyntheticTrace(4, 30, 1);
  OwnRanks ranks(t.defs);
  Signature sig;
  std::vector<uint64_t> values;
  const Event* send = splitFirstOf(t, ranks, EventKind::MpiIsend, sig, values);
  ASSERT_NE(send, nullptr);
  Event other = *send;
  other.fields[0] += 1;  // receiver: another rank
  EXPECT_EQ(splitIfSignature(other, ranks, sig, values), kNotThisSignature);
  other = *send;
  other.fields.push_back(0);
  EXPECT_ANY_THROW(splitIfSignature(other, ranks, sig, values));
}

// A kind with a repeated group takes the general path, which checks the field count: an
// event of it with no fields at all is an error, not another signature.
TEST(Compaction, SplitIfSignatureChecksFieldCountOfKindsWithAGroup) {
  const auto t = makeSyntheticTrace(2, 3, 1);
  OwnRanks ranks(t.defs);
  Signature sig;
  std::vector<uint64_t> values;
  const Event* metric = splitFirstOf(t, ranks, EventKind::Metric, sig, values);
  ASSERT_NE(metric, nullptr);
  Event empty = *metric;
  empty.fields.clear();
  EXPECT_ANY_THROW(splitIfSignature(empty, ranks, sig, values));
}

}  // namespace
}  // namespace mtf::compaction
