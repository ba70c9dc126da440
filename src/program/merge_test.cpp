#include "program/merge.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "nlr/nlr_sink.hpp"
#include "nlr/test_wavefront.hpp"
#include "program/build_model.hpp"
#include "program/comm_matrix.hpp"
#include "program/grouping.hpp"

namespace mtf::program {
namespace {

std::vector<Process> ranks(int n) {
  std::vector<Process> out;
  for (int r = 0; r < n; ++r) out.push_back({LocationId(r), r, ""});
  return out;
}

Construct event(uint32_t proc, EventKind kind, int64_t relativePartner, uint32_t tag = 1) {
  Construct c;
  c.procs = {proc};
  c.signature.kind = kind;
  c.signature.partner = relativePartner;
  c.signature.partnerRelative = true;
  c.signature.tag = tag;
  c.signature.size = 8;
  return c;
}

Construct loop(uint32_t proc, uint64_t count, System body) {
  Construct c;
  c.type = ConstructType::Loop;
  c.procs = {proc};
  c.count = count;
  c.body = std::move(body);
  return c;
}

// The seed's first example: a loop of sends and a loop of receives become one loop.
TEST(Merge, SendLoopAndReceiveLoopCoalesce) {
  const auto procs = ranks(2);
  System s = mergeSystems({loop(0, 10, {event(0, EventKind::MpiSend, 1)})},
                          {loop(1, 10, {event(1, EventKind::MpiRecv, -1)})}, procs);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].isLoop());
  EXPECT_EQ(s[0].count, 10u);
  EXPECT_EQ(s[0].procs, (ProcSet{0, 1}));
  ASSERT_EQ(s[0].body.size(), 2u);
  EXPECT_TRUE(s[0].note.empty());
}

// A loop whose link takes only part of its flow is split (seed III-B2), then the part
// that matches coalesces.
TEST(Merge, LoopIsSplitToMatchItsCorrespondent) {
  const auto procs = ranks(2);
  System s = mergeSystems({loop(0, 20, {event(0, EventKind::MpiSend, 1)})},
                          {loop(1, 10, {event(1, EventKind::MpiRecv, -1)}),
                           loop(1, 10, {event(1, EventKind::MpiRecv, -1)})},
                          procs);
  ASSERT_EQ(s.size(), 2u);
  for (const Construct& c : s) {
    EXPECT_EQ(c.count, 10u);
    EXPECT_EQ(c.procs, (ProcSet{0, 1}));
  }
}

// Different counts with a common factor are blocked to gcd iterations (seed III-B3).
TEST(Merge, CountsAreBlockedToTheirGcd) {
  const auto procs = ranks(2);
  System s = mergeSystems(
      {loop(0, 10, {event(0, EventKind::MpiSend, 1), event(0, EventKind::MpiSend, 1)})},
      {loop(1, 20, {event(1, EventKind::MpiRecv, -1)})}, procs);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].count, 10u);
  EXPECT_EQ(s[0].procs, (ProcSet{0, 1}));
  const CommMatrix m = matrixOf(s, ProgramModel{procs, s, 0});
  EXPECT_EQ(m.at({0, 1}).messages, 20u);
}

// The seed's cycle: each loop sends to the other's later loop; coalescing both pairs
// would make each loop come before and after the other. They stay apart.
TEST(Merge, CoalescingThatMakesACycleIsNotDone) {
  const auto procs = ranks(2);
  System s = mergeSystems({loop(0, 10, {event(0, EventKind::MpiSend, 1)}),
                           loop(0, 10, {event(0, EventKind::MpiRecv, 1)})},
                          {loop(1, 10, {event(1, EventKind::MpiRecv, -1)}),
                           loop(1, 10, {event(1, EventKind::MpiSend, -1)})},
                          procs);
  // Either order of the pairs is fine as long as each process keeps its own order.
  size_t merged = 0;
  for (const Construct& c : s) merged += c.procs.size() == 2;
  EXPECT_EQ(merged, 2u);  // this one is not a cycle: 0->1 first, then 1->0
  System t = mergeSystems({loop(0, 10, {event(0, EventKind::MpiRecv, 1)}),
                           loop(0, 10, {event(0, EventKind::MpiSend, 1)})},
                          {loop(1, 10, {event(1, EventKind::MpiRecv, -1)}),
                           loop(1, 10, {event(1, EventKind::MpiSend, -1)})},
                          procs);
  for (const Construct& c : t) {
    EXPECT_EQ(c.procs.size(), 1u);
    EXPECT_FALSE(c.note.empty());
  }
}

// A link smaller than one iteration would need shifting: the loop stays, with a note.
TEST(Merge, ShiftingIsReportedNotInvented) {
  const auto procs = ranks(2);
  System s = mergeSystems(
      {loop(0, 10, {event(0, EventKind::MpiSend, 1), event(0, EventKind::MpiSend, 1)})},
      {event(1, EventKind::MpiRecv, -1)}, procs);
  bool noted = false;
  for (const Construct& c : s) noted = noted || (c.isLoop() && !c.note.empty());
  EXPECT_TRUE(noted);
}

std::vector<nlr::LocationLoops> wavefrontLoops(int w, int h, int iterations, int inner) {
  const nlr::testing::Wavefront wave(w, h, iterations, inner);
  nlr::SignatureOptions s;
  s.selection = nlr::EventSelection::Communication;
  nlr::NlrSink sink({}, s);
  sink.begin(wave.defs);
  for (int r = 0; r < w * h; ++r) wave.rankEvents(r, [&](const Event& e) { sink.event(e); });
  sink.end();
  return sink.results();
}

const Construct* onlyLoop(const System& s) {
  const Construct* found = nullptr;
  for (const Construct& c : s) {
    if (!c.isLoop()) continue;
    if (found) return nullptr;
    found = &c;
  }
  return found;
}

TEST(BuildModel, WavefrontIsOneOuterLoopOverEveryRank) {
  const ProgramModel m = buildProgramModel(wavefrontLoops(4, 4, 30, 12), 2);
  const Construct* outer = onlyLoop(m.constructs);
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->count, 30u);
  EXPECT_EQ(rankText(m, outer->procs), "0-15");
  std::vector<const Construct*> inner;
  for (const Construct& c : outer->body)
    if (c.isLoop()) inner.push_back(&c);
  ASSERT_EQ(inner.size(), 2u);
  for (const Construct* c : inner) {
    EXPECT_EQ(c->count, 12u);
    EXPECT_EQ(rankText(m, c->procs), "0-15");
  }
}

TEST(BuildModel, MatrixFromTheModelCountsEverySend) {
  const ProgramModel m = buildProgramModel(wavefrontLoops(3, 2, 7, 5), 1);
  const CommMatrix matrix = matrixOf(m.constructs, m);
  // Rank 0 (corner) sends east and south: 7 x 5 sweep messages each way, plus one
  // exchange before the loop and one per iteration.
  EXPECT_EQ(matrix.at({0, 1}).messages, 7u * 5 + 8);
  EXPECT_EQ(matrix.at({0, 3}).messages, 7u * 5 + 8);
  EXPECT_EQ(matrix.at({1, 0}).messages, 7u * 5 + 8);
  EXPECT_EQ(matrix.count({0, 4}), 0u);
}

TEST(Grouping, EqualConstructsOfDistinctProcessesBecomeOne) {
  System s{event(0, EventKind::MpiSend, 1), event(1, EventKind::MpiRecv, -1),
           event(1, EventKind::MpiSend, 1), event(2, EventKind::MpiRecv, -1)};
  groupSystem(s, ranks(3));
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].procs.size() + s[1].procs.size(), 4u);
}

// Each rank's constructs of one iteration of a neighbour exchange: a send to every
// partner, then a receive from every partner (a partner is its own rank's number away).
System exchange(int ranks, const std::vector<std::function<int(int)>>& partnerOf) {
  System s;
  for (int r = 0; r < ranks; ++r)
    for (size_t k = 0; k < partnerOf.size(); ++k)
      s.push_back(event(uint32_t(r), EventKind::MpiSend, partnerOf[k](r) - r, uint32_t(k)));
  for (int r = 0; r < ranks; ++r)
    for (size_t k = 0; k < partnerOf.size(); ++k)
      s.push_back(event(uint32_t(r), EventKind::MpiRecv, partnerOf[k](r) - r, uint32_t(k)));
  return s;
}

// The matrix of an exchange counted from its events, not from a model.
CommMatrix expectedMatrix(int ranks, const std::vector<std::function<int(int)>>& partnerOf) {
  CommMatrix m;
  for (int r = 0; r < ranks; ++r) {
    for (const auto& partner : partnerOf) {
      ++m[{r, partner(r)}].messages;
      m[{r, partner(r)}].bytes += 8;
    }
  }
  return m;
}

ProgramModel modelOf(int count, System s) {
  ProgramModel m;
  m.processes = ranks(count);
  groupSystem(s, m.processes);
  m.constructs = std::move(s);
  return m;
}

TEST(Grouping, SymmetricPairExchangeIsOneConstructPerStep) {
  const std::vector<std::function<int(int)>> partners{[](int r) { return r ^ 1; }};
  const ProgramModel m = modelOf(4, exchange(4, partners));
  ASSERT_EQ(m.constructs.size(), 2u);  // the send of every rank, the receive of every rank
  EXPECT_EQ(singleProcessCount(m.constructs), 0u);
  EXPECT_EQ(m.constructs[0].procs, (ProcSet{0, 1, 2, 3}));
  EXPECT_EQ(m.constructs[0].form.kind, RankForm::Kind::Xor);
  EXPECT_EQ(partnerExpression(m.constructs[0].signature, m.constructs[0].form), "r xor 1");
  EXPECT_EQ(matrixOf(m.constructs, m), expectedMatrix(4, partners));
}

TEST(Grouping, TwoRanksExchangingTaggedMessagesBothWays) {
  // Rank 0 sends 4 tagged messages to 1 and 1 to 0, then each receives the other's.
  const std::vector<std::function<int(int)>> partners(4, [](int r) { return 1 - r; });
  const ProgramModel m = modelOf(2, exchange(2, partners));
  EXPECT_EQ(m.constructs.size(), 8u);
  EXPECT_EQ(singleProcessCount(m.constructs), 0u);
  EXPECT_EQ(matrixOf(m.constructs, m), expectedMatrix(2, partners));
}

TEST(Grouping, PeriodicRingIsOneConstruct) {
  const std::vector<std::function<int(int)>> partners{[](int r) { return (r + 1) % 6; },
                                                      [](int r) { return (r + 5) % 6; }};
  const ProgramModel m = modelOf(6, exchange(6, partners));
  ASSERT_EQ(m.constructs.size(), 4u);
  EXPECT_EQ(singleProcessCount(m.constructs), 0u);
  EXPECT_EQ(partnerExpression(m.constructs[0].signature, m.constructs[0].form), "(r+1) mod 6");
  EXPECT_EQ(partnerExpression(m.constructs[1].signature, m.constructs[1].form), "(r-1) mod 6");
  EXPECT_EQ(matrixOf(m.constructs, m), expectedMatrix(6, partners));
}

TEST(Grouping, PeriodicTorusIsOneConstructPerDirection) {
  // 3 rows of 4 ranks (rank = row * 4 + column), periodic in both directions.
  auto at = [](int row, int column) { return (row + 3) % 3 * 4 + (column + 4) % 4; };
  const std::vector<std::function<int(int)>> partners{
      [&](int r) { return at(r / 4, r % 4 + 1); }, [&](int r) { return at(r / 4, r % 4 - 1); },
      [&](int r) { return at(r / 4 + 1, r % 4); }, [&](int r) { return at(r / 4 - 1, r % 4); }};
  const ProgramModel m = modelOf(12, exchange(12, partners));
  ASSERT_EQ(m.constructs.size(), 8u);
  EXPECT_EQ(singleProcessCount(m.constructs), 0u);
  for (const Construct& c : m.constructs) EXPECT_EQ(c.procs.size(), 12u);
  EXPECT_EQ(partnerExpression(m.constructs[0].signature, m.constructs[0].form),
            "(r+(0,1)) mod 3x4");
  EXPECT_EQ(matrixOf(m.constructs, m), expectedMatrix(12, partners));
}

TEST(Grouping, OpenChainKeepsTheOffset) {
  // 0 -> 1 -> 2 -> 3, no wrap: r+1 over ranks 0-2, as the seed writes it.
  System s;
  for (uint32_t r = 0; r < 3; ++r) s.push_back(event(r, EventKind::MpiSend, 1));
  const ProgramModel m = modelOf(4, std::move(s));
  ASSERT_EQ(m.constructs.size(), 1u);
  EXPECT_EQ(m.constructs[0].form, RankForm{});
  EXPECT_EQ(m.constructs[0].signature.partner, 1);
}

TEST(Grouping, LoopsOfAPairGroupWithTheirBodies) {
  System s{loop(0, 10, {event(0, EventKind::MpiSend, 1), event(0, EventKind::MpiRecv, 1)}),
           loop(1, 10, {event(1, EventKind::MpiSend, -1), event(1, EventKind::MpiRecv, -1)})};
  const ProgramModel m = modelOf(2, std::move(s));
  ASSERT_EQ(m.constructs.size(), 1u);
  EXPECT_EQ(m.constructs[0].procs, (ProcSet{0, 1}));
  EXPECT_EQ(singleProcessCount(m.constructs), 0u);
  CommMatrix expected;
  expected[{0, 1}] = {10, 80};
  expected[{1, 0}] = {10, 80};
  EXPECT_EQ(matrixOf(m.constructs, m), expected);
}

TEST(Grouping, DifferentTagsStayApart) {
  // A ping-pong: 0 sends tag 1 to 1, 1 sends tag 2 to 0: not the same step.
  System s{event(0, EventKind::MpiSend, 1, 1), event(1, EventKind::MpiSend, -1, 2)};
  const ProgramModel m = modelOf(2, std::move(s));
  EXPECT_EQ(m.constructs.size(), 2u);
}

}  // namespace
}  // namespace mtf::program
