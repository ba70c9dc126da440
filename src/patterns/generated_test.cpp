// Classification and matching on traces of known structure from the generator (src/gen):
// every kernel is named with its parameters, and no other known pattern is.
#include <gtest/gtest.h>

#include <set>

#include "gen/generator.hpp"
#include "patterns/analysis.hpp"
#include "patterns/trace_match.hpp"
#include "util/error.hpp"

namespace mtf::patterns {
namespace {

class GeneratedSource : public TraceSource {
 public:
  explicit GeneratedSource(gen::GenOptions o) : options_(o) {
    // The definitions are what the generator passes to begin(); stop it right there.
    struct Stop {};
    struct DefinitionsOnly : TraceSink {
      Definitions* into;
      explicit DefinitionsOnly(Definitions* d) : into(d) {}
      void begin(const Definitions& d) override {
        *into = d;
        throw Stop{};
      }
      void event(const Event&) override {}
      void end() override {}
    } grab(&defs_);
    try {
      gen::generate(options_, grab);
    } catch (const Stop&) {
    }
  }
  const Definitions& definitions() override { return defs_; }
  void read(TraceSink& sink) override { gen::generate(options_, sink); }

 private:
  gen::GenOptions options_;
  Definitions defs_;
};

gen::GenOptions kernel(gen::Kernel k, uint32_t ranks, uint32_t iterations, double noise = 0) {
  gen::GenOptions o;
  o.kernel = k;
  o.ranks = ranks;
  o.iterations = iterations;
  o.inner = 6;
  o.noise = noise;
  o.seed = 11;
  return o;
}

PatternReport analyze(const gen::GenOptions& o) {
  GeneratedSource source(o);
  return analyzeTrace(source);
}

std::set<std::string> names(const PatternReport& r) {
  std::set<std::string> out;
  for (const auto& u : r.known) out.insert(u.pattern);
  return out;
}

const KnownPatternUse& only(const PatternReport& r, const std::string& name) {
  EXPECT_EQ(names(r), std::set<std::string>{name}) << reportText(r, 5);
  for (const auto& u : r.known)
    if (u.pattern == name) return u;
  static KnownPatternUse none;
  return none;
}

struct Case {
  double noise;
};
class Classification : public ::testing::TestWithParam<double> {};

TEST_P(Classification, Wavefront16IsA4x4Wavefront) {
  const PatternReport r = analyze(kernel(gen::Kernel::Wavefront, 16, 5, GetParam()));
  for (const auto& u : r.known) {
    EXPECT_EQ(u.pattern, "wavefront") << reportText(r, 5);
    EXPECT_EQ(u.parameters.at("grid"), "4x4");
    EXPECT_EQ(u.ranks.size(), 16u);
  }
  std::set<std::string> origins;
  for (const auto& u : r.known) origins.insert(u.parameters.at("origin"));
  // The forward sweep starts at rank 0, the backward sweep at the opposite corner.
  EXPECT_EQ(origins, (std::set<std::string>{"0", "15"}));
}

TEST_P(Classification, Wavefront8HasItsGrid) {
  const PatternReport r = analyze(kernel(gen::Kernel::Wavefront, 8, 4, GetParam()));
  ASSERT_FALSE(r.known.empty()) << reportText(r, 5);
  for (const auto& u : r.known) {
    EXPECT_EQ(u.pattern, "wavefront");
    EXPECT_EQ(u.parameters.at("grid"), "2x4");
  }
}

TEST_P(Classification, RingIsARing) {
  const PatternReport r = analyze(kernel(gen::Kernel::Ring, 8, 20, GetParam()));
  const auto& u = only(r, "ring");
  EXPECT_EQ(u.parameters.at("direction"), "forward");
  EXPECT_GE(u.occurrences, 19u);
  EXPECT_EQ(u.ranks.size(), 8u);
}

TEST_P(Classification, ButterflyHasItsStages) {
  const PatternReport r = analyze(kernel(gen::Kernel::Butterfly, 8, 10, GetParam()));
  EXPECT_EQ(only(r, "butterfly").parameters.at("stages"), "3");
  const PatternReport r16 = analyze(kernel(gen::Kernel::Butterfly, 16, 10, GetParam()));
  EXPECT_EQ(only(r16, "butterfly").parameters.at("stages"), "4");
}

TEST_P(Classification, HaloIsAMesh) {
  const PatternReport r = analyze(kernel(gen::Kernel::Halo, 16, 10, GetParam()));
  const auto& u = only(r, "mesh");
  EXPECT_EQ(u.parameters.at("grid"), "4x4");
  EXPECT_EQ(u.parameters.at("periodic"), "no");
  const PatternReport r6 = analyze(kernel(gen::Kernel::Halo, 6, 10, GetParam()));
  EXPECT_EQ(only(r6, "mesh").parameters.at("grid"), "2x3");
}

TEST_P(Classification, MasterWorkerHasItsMaster) {
  const PatternReport r = analyze(kernel(gen::Kernel::MasterWorker, 8, 40, GetParam()));
  const auto& u = only(r, "master-worker");
  EXPECT_EQ(u.parameters.at("master"), "0");
  EXPECT_EQ(u.parameters.at("workers"), "7");
}

INSTANTIATE_TEST_SUITE_P(NoiseLevels, Classification, ::testing::Values(0.0, 0.2));

TEST(GeneratedMatch, RingMatchesEveryRankExactly) {
  GeneratedSource source(kernel(gen::Kernel::Ring, 6, 12));
  MatchOptions o;
  const MatchReport r = matchTrace(
      source, [](size_t p) { return *builtinPattern("ring", p); }, o);
  ASSERT_EQ(r.matches.size(), 6u) << matchText(r);
  for (const RankMatch& m : r.matches) {
    EXPECT_EQ(m.distance, 0u);
    EXPECT_EQ(m.repeats, 12u);
  }
  ASSERT_EQ(r.occurrences.size(), 1u) << matchText(r);
  EXPECT_TRUE(r.occurrences[0].complete);
}

TEST(GeneratedMatch, HaloMatchesTheBuiltinMeshOnItsGrid) {
  GeneratedSource source(kernel(gen::Kernel::Halo, 8, 9));
  MatchOptions o;
  const MatchReport r = matchTrace(
      source, [](size_t p) { return *builtinPattern("mesh", p); }, o);
  EXPECT_EQ(r.spec.parameters.at("grid"), "2x4");
  ASSERT_EQ(r.matches.size(), 8u) << matchText(r);
  ASSERT_EQ(r.occurrences.size(), 1u) << matchText(r);
  EXPECT_TRUE(r.occurrences[0].complete);
  EXPECT_EQ(r.occurrences[0].totalDistance, 0u);
}

TEST(GeneratedMatch, ApproximateMatchFindsAPerturbedRing) {
  // Rank 3's part asks for one extra send: within k = 1 it still matches, exactly not.
  auto spec = [](size_t p) {
    PatternSpec s = *builtinPattern("ring", p);
    s.perRank[3].push_back(CommSymbol{SymbolKind::Send, 0});
    return s;
  };
  GeneratedSource exact(kernel(gen::Kernel::Ring, 6, 8));
  MatchOptions o;
  EXPECT_EQ(matchTrace(exact, spec, o).matches.size(), 5u);
  GeneratedSource approx(kernel(gen::Kernel::Ring, 6, 8));
  o.maxDistance = 1;
  const MatchReport r = matchTrace(approx, spec, o);
  size_t distanceOne = 0;
  for (const RankMatch& m : r.matches) distanceOne += m.rank == 3 && m.distance == 1;
  EXPECT_EQ(distanceOne, 1u) << matchText(r);
}

TEST(GeneratedMatch, ButterflyIsNotARing) {
  GeneratedSource source(kernel(gen::Kernel::Butterfly, 8, 5));
  MatchOptions o;
  const MatchReport r = matchTrace(
      source, [](size_t p) { return *builtinPattern("ring", p); }, o);
  EXPECT_TRUE(r.matches.empty()) << matchText(r);
}

TEST(GeneratedAnnotation, BlobRoundTripsItsJson) {
  const PatternReport r = analyze(kernel(gen::Kernel::Ring, 4, 5));
  const auto blob = annotationBlob(r, 3);
  EXPECT_EQ(jsonOfAnnotationBlob(blob), reportJson(r, 3));
  auto broken = blob;
  broken[0] = 'X';
  EXPECT_THROW(jsonOfAnnotationBlob(broken), InputError);
}

}  // namespace
}  // namespace mtf::patterns
