#include "nlr/nlr_sink.hpp"

#include <gtest/gtest.h>

#include "nlr/test_wavefront.hpp"

namespace mtf::nlr {
namespace {

using testing::Wavefront;

SignatureOptions compactView() {
  SignatureOptions o;
  o.selection = EventSelection::Communication;
  return o;
}

LocationLoops runRank(const Wavefront& w, int rank, const SignatureOptions& s,
                      const NlrOptions& n = {}) {
  NlrSink sink(n, s);
  sink.begin(w.defs);
  w.rankEvents(rank, [&](const Event& e) { sink.event(e); });
  sink.end();
  const std::vector<LocationLoops> r = sink.results();
  EXPECT_EQ(r.size(), 1u);
  return r.at(0);
}

// The only loop at the top level of `m`, checked to be alone among plain events.
ElementKey onlyTopLoop(const LoopModel& m) {
  ElementKey found = 0;
  int loops = 0;
  for (ElementKey k : m.top)
    if (isLoop(k)) found = k, ++loops;
  EXPECT_EQ(loops, 1);
  return found;
}

// Checks the acceptance shape: one outer loop of `iterations` whose body holds two loops
// of `inner` iterations (the sweeps), then `exchange` events; `before` and `after`
// events outside it.
void expectWavefrontShape(const LoopModel& m, size_t before, size_t sweepBody, size_t exchange,
                          size_t after, int iterations, int inner) {
  ASSERT_EQ(m.top.size(), before + 1 + after);
  const ElementKey outer = m.top[before];
  ASSERT_TRUE(isLoop(outer));
  EXPECT_EQ(countOf(outer), static_cast<uint64_t>(iterations));
  const std::vector<ElementKey>& body = m.bodies[bodyOf(outer)];
  ASSERT_EQ(body.size(), 2 + exchange);
  for (int sweep = 0; sweep < 2; ++sweep) {
    ASSERT_TRUE(isLoop(body[sweep]));
    EXPECT_EQ(countOf(body[sweep]), static_cast<uint64_t>(inner));
    EXPECT_EQ(m.bodies[bodyOf(body[sweep])].size(), sweepBody);
  }
  for (size_t i = 2; i < body.size(); ++i) EXPECT_FALSE(isLoop(body[i]));
  EXPECT_EQ(onlyTopLoop(m), outer);
}

TEST(NlrSink, WavefrontRankZeroIsFigure3) {
  const Wavefront w(4, 4, 249, 160);
  const LocationLoops r = runRank(w, 0, compactView());
  EXPECT_EQ(r.worldRank, 0);
  // allreduce, exchange (4), allreduce, barrier | loop | allreduce
  expectWavefrontShape(r.model, 7, 2, 4, 1, 249, 160);
  EXPECT_EQ(expandedLength(r.model), r.model.eventsIn);
}

TEST(NlrSink, MiddleRankHasTheSameShapeWithItsOwnPartners) {
  const Wavefront w(4, 4, 249, 160);
  const LocationLoops r = runRank(w, 5, compactView());
  expectWavefrontShape(r.model, 11, 4, 8, 1, 249, 160);
}

TEST(NlrSink, EveryEventViewHasTheSameLoops) {
  const Wavefront w(4, 4, 249, 160);
  const LocationLoops r = runRank(w, 0, {});
  // Enter main, 3 collectives of 4 events, exchange 4 x 3 | loop | collective, Leave main.
  expectWavefrontShape(r.model, 1 + 4 + 12 + 8, 6, 12, 4 + 1, 249, 160);
  EXPECT_EQ(r.eventsRead, r.model.eventsIn);
}

TEST(NlrSink, InterleavedLocationsGiveTheSameModelsAsOneAfterAnother) {
  const Wavefront w(3, 3, 6, 5);
  std::vector<std::vector<Event>> perRank(9);
  for (int r = 0; r < 9; ++r) w.rankEvents(r, [&](const Event& e) { perRank[r].push_back(e); });
  NlrSink sequential({128, 3}, {}), interleaved({128, 3}, {});
  sequential.begin(w.defs);
  interleaved.begin(w.defs);
  for (const auto& events : perRank)
    for (const Event& e : events) sequential.event(e);
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& events : perRank)
      if (i < events.size()) interleaved.event(events[i]), any = true;
    if (!any) break;
  }
  const auto a = sequential.results(), b = interleaved.results();
  ASSERT_EQ(a.size(), 9u);
  ASSERT_EQ(b.size(), 9u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].location, 100 + i);
    EXPECT_EQ(a[i].model, b[i].model);
    EXPECT_LT(printedElements(a[i].model), a[i].model.eventsIn / 3);
  }
}

TEST(NlrSink, LargeAndSmallLocationIdsInterleavedKeepTheirOwnState) {
  // Ids past the directly indexed range (OTF2 ids reach 2^37) beside small ones.
  const Wavefront w(2, 2, 6, 5);
  const LocationId ids[] = {3, LocationId{1} << 37, (LocationId{1} << 16) + 1, 0};
  std::vector<std::vector<Event>> perRank(4);
  for (int r = 0; r < 4; ++r) {
    w.rankEvents(r, [&](const Event& e) { perRank[r].push_back(e); });
    for (Event& e : perRank[r]) e.location = ids[r];
  }
  NlrSink sequential({128, 3}, {}), interleaved({128, 3}, {});
  sequential.begin(w.defs);
  interleaved.begin(w.defs);
  for (const auto& events : perRank)
    for (const Event& e : events) sequential.event(e);
  for (size_t i = 0; i < perRank[0].size(); ++i)
    for (const auto& events : perRank) interleaved.event(events.at(i));
  const auto a = sequential.results(), b = interleaved.results();
  ASSERT_EQ(a.size(), 4u);
  ASSERT_EQ(b.size(), 4u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].location, b[i].location);
    EXPECT_EQ(a[i].eventsRead, perRank[0].size());
    EXPECT_EQ(a[i].model, b[i].model);
  }
}

TEST(NlrSink, ModelExpandsToTheSignatureStream) {
  const Wavefront w(3, 2, 7, 9);
  for (int rank : {0, 4}) {
    const LocationLoops r = runRank(w, rank, {}, {32, 3});
    SignatureContext ranks(w.defs);
    SignatureExtractor x({}, ranks, 100 + rank);
    std::vector<Signature> expected, got;
    w.rankEvents(rank, [&](const Event& e) { expected.push_back(*x.signatureOf(e)); });
    expand(r.model, [&](uint32_t s) { got.push_back(r.model.signatures[s]); });
    EXPECT_EQ(got, expected);
  }
}

TEST(NlrSink, OnlyLocationFilters) {
  const Wavefront w(2, 1, 3, 3);
  NlrSink sink({}, {}, LocationId{101});
  sink.begin(w.defs);
  for (int r = 0; r < 2; ++r) w.rankEvents(r, [&](const Event& e) { sink.event(e); });
  const auto results = sink.results();
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].location, 101u);
  EXPECT_EQ(results[0].worldRank, 1);
}

TEST(NlrSink, BatchesGiveTheSameResultsAsEventByEvent) {
  // Batches of runs of one location (of several lengths, the locations interleaved by
  // run), every view: the same models and counts as event by event.
  const Wavefront w(3, 2, 6, 5);
  std::vector<std::vector<Event>> perRank(6);
  for (int r = 0; r < 6; ++r) w.rankEvents(r, [&](const Event& e) { perRank[r].push_back(e); });
  SignatureOptions canonical;
  canonical.canonicalCallOrder = true;
  SignatureOptions noSize;
  noSize.fields = kAllFields & ~kFieldSize;
  for (const SignatureOptions& view : {SignatureOptions{}, compactView(), canonical, noSize}) {
    NlrSink single({64, 3}, view), batched({64, 3}, view), only({64, 3}, view, LocationId{102});
    for (NlrSink* sink : {&single, &batched, &only}) sink->begin(w.defs);
    EventBatch batch;
    std::vector<size_t> next(perRank.size(), 0);
    for (size_t round = 0, done = 0; done < perRank.size(); ++round) {
      done = 0;
      for (size_t r = 0; r < perRank.size(); ++r) {
        const size_t run = 1 + (round + r) % 9;
        for (size_t i = 0; i < run && next[r] < perRank[r].size(); ++i) {
          single.event(perRank[r][next[r]]);
          batch.events.push_back(perRank[r][next[r]++]);
        }
        done += next[r] == perRank[r].size();
      }
      batch.size = batch.events.size();
      batched.eventsOf(batch);
      only.eventsOf(batch);
      batch.events.clear();
    }
    for (NlrSink* sink : {&single, &batched, &only}) sink->end();
    const auto a = single.results(), b = batched.results(), c = only.results();
    ASSERT_EQ(a.size(), 6u);
    ASSERT_EQ(b.size(), 6u);
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].eventsRead, b[i].eventsRead);
      EXPECT_EQ(a[i].model, b[i].model);
    }
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].model, a[2].model);
  }
}

}  // namespace
}  // namespace mtf::nlr
