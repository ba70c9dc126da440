// Structure of every kernel, checked on the generated event stream itself: event counts
// (against the documented formula), partners and message counts per pair (from the
// topology), matching of every send with one receive, time order, nesting, requests,
// collectives, determinism by seed, and the master/worker's data-dependent order.
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "gen/gen_options.hpp"
#include "gen/generator.hpp"
#include "gen/trace_check.hpp"
#include "model/text_dump.hpp"
#include "util/error.hpp"

namespace mtf::gen {
namespace {

GenOptions optionsFor(Kernel kernel, uint32_t ranks, uint32_t iterations) {
  GenOptions o;
  o.kernel = kernel;
  o.ranks = ranks;
  o.iterations = iterations;
  return o;
}

CheckReport check(const GenOptions& options) {
  TraceCheckSink sink;
  const uint64_t written = generate(options, sink);
  EXPECT_EQ(written, sink.report().events);
  return sink.report();
}

std::string dump(const GenOptions& options) {
  std::ostringstream text;
  TextDumpSink sink(text);
  generate(options, sink);
  return text.str();
}

// Pairs (a, b) of grid neighbours, computed here from coordinates, not from gen's Grid.
std::set<std::pair<uint64_t, uint64_t>> gridNeighbourPairs(uint32_t x, uint32_t y) {
  std::set<std::pair<uint64_t, uint64_t>> pairs;
  for (uint32_t r = 0; r < x * y; ++r) {
    const uint32_t col = r % x, row = r / x;
    if (col + 1 < x) pairs.insert({r, r + 1}), pairs.insert({r + 1, r});
    if (row + 1 < y) pairs.insert({r, r + x}), pairs.insert({r + x, r});
  }
  return pairs;
}

TEST(GenWavefront, EveryMessageMatchedAndCountsFollowTheFormula) {
  GenOptions o = optionsFor(Kernel::Wavefront, 16, 5);
  o.inner = 7;
  const CheckReport r = check(o);
  EXPECT_TRUE(r.clean()) << r.summary();
  GenOptions resolved = o;
  resolveAndValidate(resolved);
  EXPECT_EQ(resolved.gridX, 4u);
  EXPECT_EQ(resolved.gridY, 4u);
  EXPECT_EQ(r.events, expectedEventCount(resolved));
  // Each neighbour pair: `inner` messages per sweep in one direction (forward for
  // east/south, backward for west/north) plus one in the boundary exchange.
  const auto pairs = gridNeighbourPairs(4, 4);
  EXPECT_EQ(r.messagesPerPair.size(), pairs.size());
  for (const auto& [pair, count] : r.messagesPerPair) {
    EXPECT_TRUE(pairs.count(pair)) << pair.first << "->" << pair.second;
    EXPECT_EQ(count, 5u * (7 + 1)) << pair.first << "->" << pair.second;
  }
}

TEST(GenWavefront, PaperSizedRunIsAboutFourteenMillionEvents) {
  GenOptions o = optionsFor(Kernel::Wavefront, 16, 249);
  o.inner = 160;
  resolveAndValidate(o);
  const uint64_t n = expectedEventCount(o);
  EXPECT_GT(n, 13'500'000u);
  EXPECT_LT(n, 14'500'000u);
}

TEST(GenWavefront, CornerRankSendsOnlyEastAndSouthInTheForwardSweep) {
  GenOptions o = optionsFor(Kernel::Wavefront, 6, 1);
  o.gridX = 3;
  o.gridY = 2;
  o.inner = 4;
  std::ostringstream text;
  TextDumpSink sink(text, false);
  generate(o, sink);
  // Rank 0 (top-left corner): its first point-to-point events are the forward sweep's
  // sends to rank 1 (east) and rank 3 (south); it never receives before sending.
  std::istringstream lines(text.str());
  std::string line;
  std::vector<std::string> p2p;
  while (std::getline(lines, line) && p2p.size() < 4) {
    if (line.rfind("L0 ", 0) != 0) continue;
    if (line.find(" MpiSend ") != std::string::npos || line.find(" MpiRecv ") != std::string::npos)
      p2p.push_back(line);
  }
  ASSERT_EQ(p2p.size(), 4u);
  EXPECT_NE(p2p[0].find("MpiSend receiver=1"), std::string::npos) << p2p[0];
  EXPECT_NE(p2p[1].find("MpiSend receiver=3"), std::string::npos) << p2p[1];
  EXPECT_NE(p2p[2].find("MpiSend receiver=1"), std::string::npos) << p2p[2];
}

TEST(GenWavefront, AllreduceEveryKIterations) {
  GenOptions o = optionsFor(Kernel::Wavefront, 4, 10);
  o.inner = 2;
  o.allreduceEvery = 3;
  const CheckReport r = check(o);
  EXPECT_TRUE(r.clean()) << r.summary();
  // 3 in the loop (after iterations 3, 6, 9) + the final one, on each of 4 ranks.
  EXPECT_EQ(r.eventsPerKind.at(EventKind::MpiCollectiveEnd), 4u * (3 + 1 + 2));
  GenOptions resolved = o;
  resolveAndValidate(resolved);
  EXPECT_EQ(r.events, expectedEventCount(resolved));
}

TEST(GenRing, EachRankSendsToTheNextAndReceivesFromThePrevious) {
  for (uint32_t ranks : {2u, 5u, 8u}) {
    const CheckReport r = check(optionsFor(Kernel::Ring, ranks, 6));
    EXPECT_TRUE(r.clean()) << ranks << ": " << r.summary();
    EXPECT_EQ(r.events, expectedEventCount(optionsFor(Kernel::Ring, ranks, 6)));
    EXPECT_EQ(r.messagesPerPair.size(), ranks);
    for (const auto& [pair, count] : r.messagesPerPair) {
      EXPECT_EQ(pair.second, (pair.first + 1) % ranks);
      EXPECT_EQ(count, 6u);
    }
  }
}

TEST(GenButterfly, PartnersAreRankXorPowersOfTwo) {
  const CheckReport r = check(optionsFor(Kernel::Butterfly, 8, 3));
  EXPECT_TRUE(r.clean()) << r.summary();
  EXPECT_EQ(r.events, expectedEventCount(optionsFor(Kernel::Butterfly, 8, 3)));
  EXPECT_EQ(r.messagesPerPair.size(), 8u * 3);  // log2(8) partners per rank
  for (const auto& [pair, count] : r.messagesPerPair) {
    const uint64_t x = pair.first ^ pair.second;
    EXPECT_TRUE(x == 1 || x == 2 || x == 4) << pair.first << "->" << pair.second;
    EXPECT_EQ(count, 3u);
  }
  EXPECT_EQ(r.eventsPerKind.at(EventKind::MpiIsendComplete), 8u * 3 * 3);
}

TEST(GenButterfly, RefusesRankCountsThatAreNotPowersOfTwo) {
  GenOptions o = optionsFor(Kernel::Butterfly, 12, 1);
  EXPECT_THROW(resolveAndValidate(o), UsageError);
}

TEST(GenHalo, ExchangesWithEveryGridNeighbourOncePerIteration) {
  GenOptions o = optionsFor(Kernel::Halo, 0, 4);
  o.gridX = 3;
  o.gridY = 4;
  const CheckReport r = check(o);
  EXPECT_TRUE(r.clean()) << r.summary();
  const auto pairs = gridNeighbourPairs(3, 4);
  EXPECT_EQ(r.messagesPerPair.size(), pairs.size());
  for (const auto& [pair, count] : r.messagesPerPair) {
    EXPECT_TRUE(pairs.count(pair));
    EXPECT_EQ(count, 4u);
  }
  GenOptions resolved = o;
  resolveAndValidate(resolved);
  EXPECT_EQ(resolved.ranks, 12u);
  EXPECT_EQ(r.events, expectedEventCount(resolved));
  // Waitall completes each receive with an MpiIrecv carrying sender, tag and size.
  EXPECT_EQ(r.eventsPerKind.at(EventKind::MpiIrecv), r.messages);
}

TEST(GenMasterWorker, WorkersTalkOnlyToRankZeroInADataDependentOrder) {
  const GenOptions o = optionsFor(Kernel::MasterWorker, 6, 20);
  const CheckReport r = check(o);
  EXPECT_TRUE(r.clean()) << r.summary();
  EXPECT_EQ(r.events, expectedEventCount(o));
  uint64_t results = 0;
  for (const auto& [pair, count] : r.messagesPerPair) {
    EXPECT_TRUE(pair.first == 0 || pair.second == 0);
    if (pair.second == 0) results += count;
  }
  EXPECT_EQ(results, 5u * 20);
  // Results arrive in the order tasks finish, not round robin.
  const auto& sources = r.rankZeroReceiveSources;
  ASSERT_EQ(sources.size(), 100u);
  bool roundRobin = true;
  for (size_t i = 0; i < sources.size(); ++i) roundRobin &= sources[i] == 1 + i % 5;
  EXPECT_FALSE(roundRobin);
}

TEST(GenMasterWorker, OrderDependsOnTheSeed) {
  GenOptions a = optionsFor(Kernel::MasterWorker, 5, 30);
  GenOptions b = a;
  b.seed = 2;
  EXPECT_NE(check(a).rankZeroReceiveSources, check(b).rankZeroReceiveSources);
}

TEST(GenDeterminism, SameSeedSameTraceOtherSeedOtherTimes) {
  for (Kernel k :
       {Kernel::Wavefront, Kernel::Ring, Kernel::Butterfly, Kernel::Halo, Kernel::MasterWorker}) {
    GenOptions o = optionsFor(k, 4, 3);
    o.inner = 3;
    o.seed = 42;
    const std::string first = dump(o);
    EXPECT_EQ(first, dump(o)) << kernelName(k);
    o.seed = 43;
    EXPECT_NE(first, dump(o)) << kernelName(k);
  }
}

TEST(GenTiming, StepsVaryAndTicksFollowTheResolution) {
  GenOptions o = optionsFor(Kernel::Ring, 2, 50);
  o.resolution = 100'000'000;
  TraceCheckSink fine, coarse;
  struct Times : TraceSink {
    std::set<Tick> gaps;
    Tick last = 0;
    void begin(const Definitions&) override {}
    void event(const Event& e) override {
      if (e.location == 0 && e.kind == EventKind::MpiSend)
        gaps.insert(e.time - last), last = e.time;
    }
    void end() override {}
  } times;
  generate(o, times);
  EXPECT_GT(times.gaps.size(), 40u);  // never a constant step between iterations
  struct Last : TraceSink {
    Tick last = 0;
    void begin(const Definitions&) override {}
    void event(const Event& e) override { last = std::max(last, e.time); }
    void end() override {}
  } at1e8, at1e9;
  generate(o, at1e8);
  o.resolution = 1'000'000'000;
  generate(o, at1e9);
  // Same run in ns ticks is about ten times as many ticks long.
  EXPECT_GT(at1e9.last, at1e8.last * 9);
  EXPECT_LT(at1e9.last, at1e8.last * 11);
}

TEST(GenTiming, ClockLengthCoversTheRunTightly) {
  for (Kernel k : {Kernel::Wavefront, Kernel::MasterWorker}) {
    struct Span : TraceSink {
      Tick length = 0, last = 0;
      std::string kernel;
      void begin(const Definitions& d) override {
        length = d.clock.traceLength;
        kernel = d.info.properties.at("gen.kernel");
      }
      void event(const Event& e) override { last = std::max(last, e.time); }
      void end() override {}
    } span;
    generate(optionsFor(k, 6, 7), span);
    EXPECT_EQ(span.kernel, kernelName(k));
    EXPECT_GE(span.length, span.last) << kernelName(k);
    EXPECT_LT(span.length - span.last, span.last / 100) << kernelName(k);
  }
}

TEST(GenNoise, NoiseAddsUnrelatedCallsButKeepsEveryInvariant) {
  for (Kernel k :
       {Kernel::Wavefront, Kernel::Ring, Kernel::Butterfly, Kernel::Halo, Kernel::MasterWorker}) {
    GenOptions o = optionsFor(k, 8, 12);
    o.inner = 6;
    o.noise = 0.3;
    const CheckReport r = check(o);
    EXPECT_TRUE(r.clean()) << kernelName(k) << ": " << r.summary();
    GenOptions quiet = o;
    quiet.noise = 0;
    resolveAndValidate(quiet);
    EXPECT_GT(r.events, expectedEventCount(quiet)) << kernelName(k);
    EXPECT_EQ(r.messages, check(quiet).messages) << kernelName(k);
  }
}

// The generator must not keep the trace: heap in use stays flat while events stream out.
TEST(GenStreaming, HeapDoesNotGrowWithTheTrace) {
  struct HeapSampler : TraceSink {
    uint64_t count = 0;
    size_t atStart = 0, peak = 0;
    void begin(const Definitions&) override {}
    void event(const Event&) override {
      if (++count % 50'000 != 0) return;
      const size_t used = mallinfo2().uordblks;
      if (atStart == 0) atStart = used;
      peak = std::max(peak, used);
    }
    void end() override {}
  } sampler;
  GenOptions o = optionsFor(Kernel::Wavefront, 16, 100);
  o.inner = 60;  // about 2.2 million events
  generate(o, sampler);
  EXPECT_GT(sampler.count, 2'000'000u);
  EXPECT_LT(sampler.peak - sampler.atStart, 256u * 1024) << "heap grew while generating";
}

TEST(GenOptionsTest, GridMustMatchRanks) {
  GenOptions o = optionsFor(Kernel::Wavefront, 16, 1);
  o.gridX = 3;
  o.gridY = 4;
  EXPECT_THROW(resolveAndValidate(o), UsageError);
  o.ranks = 12;
  EXPECT_NO_THROW(resolveAndValidate(o));
  GenOptions prime = optionsFor(Kernel::Halo, 7, 1);
  resolveAndValidate(prime);
  EXPECT_EQ(prime.gridX * prime.gridY, 7u);
  GenOptions noisy = optionsFor(Kernel::Ring, 4, 1);
  noisy.noise = 1.5;
  EXPECT_THROW(resolveAndValidate(noisy), UsageError);
}

}  // namespace
}  // namespace mtf::gen

namespace mtf::gen {
namespace {

// --pause: one BufferFlush per rank, all inside one window of about the pause's length
// before the iteration, every other invariant kept; refused for kernels that do not pause.
TEST(GenPause, EveryRankFlushesOnceForAboutThePause) {
  for (Kernel kernel : {Kernel::Wavefront, Kernel::Halo}) {
    GenOptions o = optionsFor(kernel, 16, 6);
    o.pauseIteration = 3;
    o.pauseUs = 5000;
    const CheckReport r = check(o);
    EXPECT_TRUE(r.clean()) << r.summary();
    GenOptions resolved = o;
    resolveAndValidate(resolved);
    EXPECT_EQ(r.events, expectedEventCount(resolved));
    struct Flushes : TraceSink {
      void begin(const Definitions&) override {}
      void event(const Event& e) override {
        if (e.kind == EventKind::BufferFlush) spans.push_back({e.time, e.fields[0]});
      }
      void end() override {}
      std::vector<std::pair<Tick, Tick>> spans;
    } flushes;
    generate(o, flushes);
    ASSERT_EQ(flushes.spans.size(), 16u);
    Tick first = ~Tick{0}, last = 0;
    for (auto [a, b] : flushes.spans) first = std::min(first, a), last = std::max(last, b);
    EXPECT_GE(last - first, 4'000'000u);  // ns: the flushes span most of the 5 ms
    EXPECT_LE(last - first, 5'000'000u);
  }
  GenOptions ring = optionsFor(Kernel::Ring, 4, 6);
  ring.pauseIteration = 1;
  ring.pauseUs = 10;
  EXPECT_THROW(resolveAndValidate(ring), UsageError);
  GenOptions late = optionsFor(Kernel::Halo, 4, 6);
  late.pauseIteration = 6;
  late.pauseUs = 10;
  EXPECT_THROW(resolveAndValidate(late), UsageError);
}

}  // namespace
}  // namespace mtf::gen
