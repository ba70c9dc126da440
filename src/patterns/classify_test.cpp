// Classification of synthetic traces built through the model from the built-in
// patterns themselves: each is named, with its parameters, and no other is.
#include <gtest/gtest.h>

#include <set>

#include "patterns/analysis.hpp"
#include "patterns/library.hpp"
#include "patterns/spec_source_test.hpp"
#include "util/error.hpp"

namespace mtf::patterns {
namespace {

void expectOnly(const PatternReport& r, const std::string& name,
                const std::map<std::string, std::string>& params) {
  std::set<std::string> names;
  for (const auto& u : r.known) names.insert(u.pattern);
  ASSERT_EQ(names, std::set<std::string>{name}) << reportText(r, 5);
  for (const auto& [k, v] : params) EXPECT_EQ(r.known[0].parameters.at(k), v) << k;
  EXPECT_GE(r.known[0].occurrences, 12u);
}

TEST(ClassifySynthetic, EveryBuiltinIsRecognized) {
  expectOnly(analyzeSpec(*builtinPattern("ring", 5)), "ring", {{"direction", "forward"}});
  expectOnly(analyzeSpec(*builtinPattern("mesh:4x3", 12)), "mesh", {{"grid", "4x3"}});
  expectOnly(analyzeSpec(*builtinPattern("wavefront:3x3", 9)), "wavefront",
             {{"grid", "3x3"}, {"origin", "0"}});
  expectOnly(analyzeSpec(*builtinPattern("butterfly", 8)), "butterfly", {{"stages", "3"}});
  expectOnly(analyzeSpec(*builtinPattern("tree-reduce", 7)), "tree-reduce",
             {{"shape", "binary"}, {"depth", "2"}});
  expectOnly(analyzeSpec(*builtinPattern("tree-bcast", 10)), "tree-bcast", {{"shape", "binary"}});
  expectOnly(analyzeSpec(*builtinPattern("master-worker", 6)), "master-worker",
             {{"master", "0"}, {"workers", "5"}});
  expectOnly(analyzeSpec(*builtinPattern("all-to-all", 5)), "all-to-all", {});
}

TEST(ClassifySynthetic, VariantsCarryTheirParameters) {
  expectOnly(analyzeSpec(ringPattern(6, -1)), "ring", {{"direction", "backward"}});
  expectOnly(analyzeSpec(ringPattern(6, 0)), "ring", {{"direction", "both"}});
  expectOnly(analyzeSpec(meshPattern({3, 3}, 9, true)), "mesh", {{"periodic", "yes"}});
  expectOnly(analyzeSpec(wavefrontPattern({4, 2}, 8, -1, -1)), "wavefront",
             {{"grid", "4x2"}, {"origin", "7"}});
  expectOnly(analyzeSpec(treePattern(8, true, true)), "tree-reduce", {{"shape", "binomial"}});
}

TEST(ClassifySynthetic, StrayMessagesDoNotChangeTheAnswer) {
  expectOnly(analyzeSpec(*builtinPattern("ring", 6), 60, 7), "ring", {{"direction", "forward"}});
  expectOnly(analyzeSpec(*builtinPattern("mesh:3x3", 9), 60, 7), "mesh", {{"grid", "3x3"}});
  expectOnly(analyzeSpec(*builtinPattern("butterfly", 8), 60, 7), "butterfly", {{"stages", "3"}});
}

TEST(ClassifySynthetic, ButterflyOfFourIsNotAMesh) {
  // With 4 processes a butterfly and a 2x2 halo exchange link the same pairs; the order
  // of the partners (stage by stage) tells them apart.
  expectOnly(analyzeSpec(*builtinPattern("butterfly", 4)), "butterfly", {{"stages", "2"}});
  expectOnly(analyzeSpec(*builtinPattern("mesh:2x2", 4)), "mesh", {{"grid", "2x2"}});
}

TEST(ClassifySynthetic, IrregularExchangeIsNotNamed) {
  PatternSpec spec = *builtinPattern("ring", 6);
  spec.perRank[2] = {CommSymbol{SymbolKind::Send, 3}, CommSymbol{SymbolKind::Send, 5},
                     CommSymbol{SymbolKind::Recv, 1}};
  spec.perRank[5].push_back(CommSymbol{SymbolKind::Recv, 2});
  const PatternReport r = analyzeSpec(spec);
  EXPECT_TRUE(r.known.empty()) << reportText(r, 5);
  EXPECT_FALSE(r.commPatterns.empty());
}

TEST(ClassifySynthetic, CollectiveOnlyPatternIsReported) {
  PatternSpec spec;
  spec.perRank.resize(4);
  CommSymbol bcast{SymbolKind::Collective, -1, 1}, allreduce{SymbolKind::Collective, -1, 11};
  for (auto& r : spec.perRank) r = {bcast, allreduce, allreduce};
  const PatternReport r = analyzeSpec(spec, 6);
  ASSERT_FALSE(r.commPatterns.empty());
  EXPECT_TRUE(r.commPatterns[0].collectiveOnly);
  EXPECT_EQ(r.commPatterns[0].ranks.size(), 4u);
  EXPECT_TRUE(r.known.empty());
}

TEST(PatternFile, ParsesRanksRangesAndRelativePartners) {
  const PatternSpec spec = parsePatternText(
      "# a ring written for any size\nname myring\nrank *: S+1 R-1\nrank 0,2-3: Allreduce\n", 4,
      "test");
  EXPECT_EQ(spec.name, "myring");
  ASSERT_EQ(spec.perRank.size(), 4u);
  EXPECT_EQ(toString(spec.perRank[0][0]), "S1");
  EXPECT_EQ(toString(spec.perRank[0][1]), "R3");
  EXPECT_EQ(toString(spec.perRank[3][0]), "S0");
  EXPECT_EQ(spec.perRank[1].size(), 2u);
  EXPECT_EQ(toString(spec.perRank[2][2]), "Allreduce");
  const PatternSpec fixed = parsePatternText("processes 3\nrank 1: Bcast@0 R0\n", 16, "t");
  EXPECT_EQ(fixed.perRank.size(), 3u);
  EXPECT_EQ(toString(fixed.perRank[1][0]), "Bcast@0");
}

TEST(PatternFile, RefusesBadLinesNamingThem) {
  auto messageOf = [](const std::string& text) {
    try {
      parsePatternText(text, 4, "p.txt");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(messageOf("name x\nrank 0: S1 Q7\n").find("line 2"), std::string::npos);
  EXPECT_NE(messageOf("rank 9: S1\n").find("line 1"), std::string::npos);
  EXPECT_NE(messageOf("rank 0: S8\n").find("partner 8"), std::string::npos);
  EXPECT_NE(messageOf("frobnicate\n").find("unknown statement"), std::string::npos);
  EXPECT_NE(messageOf("# nothing\n").find("no events"), std::string::npos);
}

// edgesOf keeps each rank's edges once as it meets them; the result must still be every
// distinct (sender, receiver) pair, as a plain set computes it.
TEST(Library, EdgesOfRepeatedAndUnknownPartnersMatchASet) {
  PatternSpec spec;
  spec.perRank.resize(5);
  uint64_t state = 12345;
  const auto next = [&state] {
    return (state = state * 6364136223846793005u + 1442695040888963407u) >> 33;
  };
  std::set<std::pair<int64_t, int64_t>> expected;
  for (size_t i = 0; i < 400; ++i) {
    const size_t r = next() % 5;
    const bool send = next() % 2 == 0;
    const int64_t partner = int64_t(next() % 7) - 1;  // -1 and 5 are outside the ranks
    spec.perRank[r].push_back({send ? SymbolKind::Send : SymbolKind::Recv, partner});
    expected.insert(send ? std::make_pair(int64_t(r), partner)
                         : std::make_pair(partner, int64_t(r)));
  }
  spec.perRank[2].push_back({SymbolKind::Collective, -1});
  const auto edges = edgesOf(spec);
  EXPECT_EQ(std::set(edges.begin(), edges.end()), expected);
  EXPECT_EQ(edges.size(), expected.size());
}

TEST(Library, EdgesOfBuiltins) {
  EXPECT_EQ(edgesOf(*builtinPattern("mesh:4x4", 16)).size(), 48u);       // 24 pairs, both ways
  EXPECT_EQ(edgesOf(*builtinPattern("wavefront:4x4", 16)).size(), 24u);  // one way
  EXPECT_EQ(edgesOf(*builtinPattern("butterfly", 8)).size(), 24u);       // 8 ranks x 3 stages
  EXPECT_EQ(edgesOf(*builtinPattern("all-to-all", 5)).size(), 20u);
  EXPECT_EQ(edgesOf(*builtinPattern("tree-reduce", 7)).size(), 6u);
  EXPECT_EQ(builtinPattern("nonsense", 4), std::nullopt);
  EXPECT_THROW(builtinPattern("butterfly", 6), UsageError);
  EXPECT_THROW(builtinPattern("mesh:3x3", 8), UsageError);
  EXPECT_EQ(gridShapes(16).front().x, 4u);
  EXPECT_EQ(gridShapes(8).front().x, 2u);
  EXPECT_EQ(gridShapes(8).front().y, 4u);
  EXPECT_EQ(gridShapes(7).size(), 0u);
}

}  // namespace
}  // namespace mtf::patterns
