// The classifiers real traces needed (issue 29): pairwise exchanges, 3D halos on small
// grids where neighbours coincide, tree allreduce, gather/scatter, patterns on the ranks
// that communicate or on sub-groups, and the explanation of near misses.
#include <gtest/gtest.h>

#include <set>

#include "patterns/analysis.hpp"
#include "patterns/library.hpp"
#include "patterns/spec_source_test.hpp"
#include "util/error.hpp"

namespace mtf::patterns {
namespace {

std::set<std::string> names(const PatternReport& r) {
  std::set<std::string> out;
  for (const auto& u : r.known) out.insert(u.pattern);
  return out;
}

// The single known pattern of r, checked to be `name` with `params`.
const KnownPatternUse& expectOnly(const PatternReport& r, const std::string& name,
                                  const std::map<std::string, std::string>& params) {
  EXPECT_EQ(names(r), std::set<std::string>{name}) << reportText(r, 5);
  static const KnownPatternUse none;
  if (r.known.empty()) return none;
  for (const auto& [k, v] : params) {
    const auto it = r.known[0].parameters.find(k);
    EXPECT_TRUE(it != r.known[0].parameters.end() && it->second == v)
        << k << " should be " << v << "\n"
        << reportText(r, 5);
  }
  return r.known[0];
}

TEST(Library3d, GridShapesAndNeighbourCounts) {
  ASSERT_EQ(gridShapes3(8).size(), 1u);
  EXPECT_EQ(gridText(gridShapes3(8)[0]), "2x2x2");
  EXPECT_EQ(gridText(gridShapes3(27)[0]), "3x3x3");
  EXPECT_TRUE(gridShapes3(12).size() == 3u);  // 3x2x2, 2x3x2, 2x2x3
  EXPECT_TRUE(gridShapes3(7).empty());
  EXPECT_TRUE(gridShapes3(4).empty());
  const Grid3 cube{3, 3, 3}, small{2, 2, 2};
  EXPECT_EQ(stencilNeighbours(cube, 13, 6, false).size(), 6u);  // the centre
  EXPECT_EQ(stencilNeighbours(cube, 13, 18, false).size(), 18u);
  EXPECT_EQ(stencilNeighbours(cube, 13, 26, false).size(), 26u);
  EXPECT_EQ(stencilNeighbours(cube, 0, 26, false).size(), 7u);   // a corner
  EXPECT_EQ(stencilNeighbours(cube, 0, 26, true).size(), 26u);   // wrapped
  EXPECT_EQ(stencilNeighbours(small, 0, 6, true).size(), 3u);    // both sides coincide
  EXPECT_EQ(stencilNeighbours(small, 0, 18, false).size(), 6u);  // not the far corner
  EXPECT_EQ(stencilNeighbours(small, 0, 26, false).size(), 7u);  // every other rank
  // Faces first: rank 0 of 2x2x2 meets 1, 2, 4 before edges and the corner.
  EXPECT_EQ(stencilNeighbours(small, 0, 26, false), (std::vector<int64_t>{1, 2, 4, 3, 5, 6, 7}));
  EXPECT_EQ(stencilClass(small, 0, 7, false), 3);
  EXPECT_EQ(stencilClass(cube, 0, 2, false), 0);                       // two cells away
  EXPECT_EQ(stencilClass(cube, 0, 2, true), 1);                        // a wrapped face
  EXPECT_EQ(edgesOf(mesh3dPattern(small, 8, 26, false)).size(), 56u);  // complete
  EXPECT_EQ(edgesOf(*builtinPattern("mesh3d:3x3x3", 27)).size(), 108u);
  EXPECT_THROW(builtinPattern("mesh3d:2x2x3", 8), UsageError);
  EXPECT_THROW(builtinPattern("mesh3d", 7), UsageError);
  EXPECT_THROW(builtinPattern("pairwise", 5), UsageError);
}

TEST(ClassifyNew, PairwiseExchanges) {
  expectOnly(analyzeSpec(*builtinPattern("pairwise", 2)), "pairwise",
             {{"pairing", "r xor 1"}, {"pairs", "1"}});
  // Each pair is its own communication pattern: they are reported as one exchange.
  const PatternReport eight = analyzeSpec(*builtinPattern("pairwise", 8));
  const auto& u = expectOnly(eight, "pairwise", {{"pairing", "r xor 1"}, {"pairs", "4"}});
  EXPECT_EQ(u.ranks.size(), 8u);
  std::vector<int64_t> half = {3, 4, 5, 0, 1, 2};
  expectOnly(analyzeSpec(pairwisePattern(half, "")), "pairwise", {{"pairing", "r+P/2"}});
  // A Sendrecv: both send, then both receive.
  PatternSpec sendrecv;
  sendrecv.perRank = {{sendTo(1), recvFrom(1)}, {sendTo(0), recvFrom(0)}};
  expectOnly(analyzeSpec(sendrecv), "pairwise", {{"pairs", "1"}});
}

TEST(ClassifyNew, OneWayMessagesAreNotPairwise) {
  PatternSpec oneWay;
  oneWay.perRank = {{sendTo(1), sendTo(1)}, {recvFrom(0), recvFrom(0)}};
  EXPECT_TRUE(analyzeSpec(oneWay).known.empty());
}

TEST(ClassifyNew, ThreeDimensionalHalos) {
  expectOnly(analyzeSpec(mesh3dPattern({3, 3, 3}, 27, 6, false)), "mesh3d",
             {{"grid", "3x3x3"}, {"neighbours", "6"}, {"periodic", "no"}});
  expectOnly(analyzeSpec(mesh3dPattern({4, 3, 2}, 24, 18, false)), "mesh3d",
             {{"grid", "4x3x2"}, {"neighbours", "18"}});
  expectOnly(analyzeSpec(mesh3dPattern({3, 3, 4}, 36, 6, true)), "mesh3d",
             {{"grid", "3x3x4"}, {"periodic", "yes"}});
  expectOnly(analyzeSpec(mesh3dPattern({2, 2, 3}, 12, 26, false)), "mesh3d",
             {{"grid", "2x2x3"}, {"neighbours", "26"}});
  // 2x2x2: 6 neighbours are 3 distinct partners, 18 are 6, 26 are every other rank.
  expectOnly(analyzeSpec(mesh3dPattern({2, 2, 2}, 8, 18, false)), "mesh3d",
             {{"grid", "2x2x2"}, {"neighbours", "18"}});
  expectOnly(analyzeSpec(mesh3dPattern({2, 2, 2}, 8, 26, false)), "mesh3d",
             {{"grid", "2x2x2"}, {"neighbours", "26"}});
}

// LULESH on 2x2x2: two 26-neighbour exchanges and one face exchange per iteration,
// receives posted first; every rank exchanges with all 7 others, as in an all-to-all, but
// in stencil order (faces, edges, corner).
TEST(ClassifyNew, LuleshLikeExchangeIsA3dHaloNotAnAllToAll) {
  const Grid3 g{2, 2, 2};
  PatternSpec spec;
  spec.perRank.resize(8);
  for (int64_t r = 0; r < 8; ++r)
    for (int neighbours : {26, 26, 6}) {
      const auto partners = stencilNeighbours(g, r, neighbours, false);
      for (int64_t n : partners) spec.perRank[size_t(r)].push_back(recvFrom(n));
      for (int64_t n : partners) spec.perRank[size_t(r)].push_back(sendTo(n));
    }
  expectOnly(analyzeSpec(spec), "mesh3d", {{"grid", "2x2x2"}, {"neighbours", "26"}});
  // The same pairs in the order r+1, r+2, ... stay an all-to-all.
  expectOnly(analyzeSpec(*builtinPattern("all-to-all", 8)), "all-to-all", {});
}

TEST(ClassifyNew, TreeAllreduceGatherScatter) {
  expectOnly(analyzeSpec(treeAllreducePattern(4, true)), "tree-allreduce",
             {{"shape", "binomial"}, {"root", "0"}});
  expectOnly(analyzeSpec(treeAllreducePattern(7, false)), "tree-allreduce", {{"shape", "binary"}});
  expectOnly(analyzeSpec(fanPattern(6, 0, true)), "gather", {{"root", "0"}});
  expectOnly(analyzeSpec(fanPattern(6, 0, false)), "scatter", {{"root", "0"}});
}

// Ranks that never exchange messages (another application's tasks) do not hide a pattern
// of the others: it is found on the communicating ranks, named as a group.
TEST(ClassifyNew, PatternOnTheCommunicatingRanksOnly) {
  PatternSpec spec = mesh3dPattern({2, 2, 2}, 8, 6, false);
  spec.perRank.resize(12);  // ranks 8-11 only compute
  const PatternReport report = analyzeSpec(spec);
  const auto& u =
      expectOnly(report, "mesh3d", {{"grid", "2x2x2"}, {"group", "0-7"}, {"processes", "8"}});
  EXPECT_EQ(u.ranks.size(), 8u);
}

// Two sub-communicators that never talk to each other (even and odd ranks), each an
// all-to-all of its own: one pattern per group, named with its world ranks.
TEST(ClassifyNew, PatternsOnDisjointSubGroups) {
  PatternSpec spec;
  spec.perRank.resize(10);
  for (int64_t r = 0; r < 10; ++r)
    for (int64_t d = 1; d < 5; ++d) {
      spec.perRank[size_t(r)].push_back(sendTo((r + 2 * d) % 10));
      spec.perRank[size_t(r)].push_back(recvFrom((r + 10 - 2 * d) % 10));
    }
  const PatternReport r = analyzeSpec(spec);
  std::set<std::string> groups;
  for (const auto& u : r.known) {
    EXPECT_EQ(u.pattern, "all-to-all") << reportText(r, 5);
    groups.insert(u.parameters.at("group"));
  }
  EXPECT_EQ(groups, (std::set<std::string>{"0,2,4,6,8", "1,3,5,7,9"})) << reportText(r, 5);
}

TEST(ClassifyNew, NearMissNamesTheClosestPatternAndWhatIsMissing) {
  // A 2x2x2 face exchange where ranks 3 and 7 never talk.
  PatternSpec spec = mesh3dPattern({2, 2, 2}, 8, 6, false);
  for (size_t r : {3u, 7u}) {
    auto& seq = spec.perRank[r];
    const int64_t other = r == 3 ? 7 : 3;
    seq.erase(std::remove_if(seq.begin(), seq.end(),
                             [&](const CommSymbol& s) { return s.partner == other; }),
              seq.end());
  }
  const PatternReport r = analyzeSpec(spec);
  EXPECT_TRUE(r.known.empty()) << reportText(r, 5);
  ASSERT_FALSE(r.nearMisses.empty()) << reportText(r, 5);
  const NearMiss& m = r.nearMisses[0];
  EXPECT_EQ(m.pattern, "mesh3d");
  EXPECT_EQ(m.parameters.at("grid"), "2x2x2");
  EXPECT_EQ(m.missing, (std::vector<std::pair<int64_t, int64_t>>{{3, 7}, {7, 3}}));
  EXPECT_TRUE(m.extra.empty());
  EXPECT_EQ(m.ranksMissingPartner, (std::vector<int64_t>{3, 7}));
  EXPECT_NE(m.text.find("2 of 8 ranks miss a partner (3->7, 7->3)"), std::string::npos) << m.text;
  EXPECT_NE(reportText(r, 0).find("close to mesh3d"), std::string::npos);
  EXPECT_NE(reportJson(r, 0).find("\"near_misses\":[{\"pattern\":\"mesh3d\""), std::string::npos);
}

TEST(ClassifyNew, NoNearMissWhenFarFromEveryPattern) {
  PatternSpec spec;
  spec.perRank.resize(6);
  const int64_t partners[6][3] = {{1, 3, 4}, {0, 5, 2}, {1, 4, 5}, {0, 5, 4}, {0, 2, 3}, {1, 2, 3}};
  for (int64_t r = 0; r < 6; ++r) {
    for (int64_t p : partners[r]) spec.perRank[size_t(r)].push_back(sendTo(p));
    for (int64_t p : partners[r]) spec.perRank[size_t(r)].push_back(recvFrom(p));
  }
  const PatternReport r = analyzeSpec(spec);
  EXPECT_TRUE(r.known.empty()) << reportText(r, 5);
  EXPECT_TRUE(r.nearMisses.empty()) << reportText(r, 5);
}

}  // namespace
}  // namespace mtf::patterns
