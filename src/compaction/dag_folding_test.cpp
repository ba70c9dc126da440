// DagBuilder's folding with a list's TailRepeat state: the edges it gives are the ones the
// full search gives (appendTyped on a plain vector), in the cases where a state that went
// stale would differ, and on many random streams of repeats.
#include <gtest/gtest.h>

#include <random>

#include "compaction/dag_builder.hpp"

namespace mtf::compaction {
namespace {

class Folding : public ::testing::Test {
 protected:
  // The leaf of symbol `i` (one signature per symbol).
  NodeId leaf(uint32_t i) {
    Signature sig;
    sig.kind = EventKind::Enter;
    sig.fields = {i};
    return dag.leaf(dag.intern(sig));
  }
  // Appends the symbols to `list` (with its state) and to `plain` (the full search each
  // time), checking after every append that both hold the same edges.
  void append(std::initializer_list<uint32_t> symbols) {
    for (uint32_t s : symbols) appendOne(leaf(s), 1);
  }
  void appendOne(NodeId child, uint64_t repetitions, EdgeType type = EdgeType::Regular) {
    dag.appendTyped(list, child, repetitions, type);
    dag.appendTyped(plain, child, repetitions, type);
    ASSERT_EQ(list.edges, plain) << "after appending node " << child;
  }
  // The Sequence node of these edges (interned: the one the folds made, if any).
  NodeId sequence(const std::vector<Edge>& body) { return dag.sequence(body); }
  Edge regular(uint32_t symbol, uint64_t repetitions = 1) {
    return Edge{leaf(symbol), repetitions, EdgeType::Regular};
  }

  CompactModel model;
  DagBuilder dag{model};
  ChildList list;
  std::vector<Edge> plain;
};

constexpr uint32_t x = 0, y = 1, z = 2, a = 3, b = 4, c = 5, d = 6;

// A body of three, repeated: every copy after the second grows the Sequence edge by one;
// edges appended after that fold start the body again.
TEST_F(Folding, EdgesAfterAFoldStartTheBodyAgain) {
  append({a, b, c, a, b, c, a, b, c, a, b, c});
  const NodeId s = sequence({regular(a), regular(b), regular(c)});
  EXPECT_EQ(list.edges, (std::vector<Edge>{{s, 4, EdgeType::Sequence}}));
  append({a, b, d});
  EXPECT_EQ(list.edges,
            (std::vector<Edge>{{s, 4, EdgeType::Sequence}, regular(a), regular(b), regular(d)}));
}

// The tail matches the body's first edges, then diverges: a later edge that would complete
// the body at the old count must not grow the Sequence edge.
TEST_F(Folding, ABodyMatchedPartlyThenDivergingIsNotCompleted) {
  append({a, b, c, a, b, c, a, b, x, c});
  const NodeId s = sequence({regular(a), regular(b), regular(c)});
  EXPECT_EQ(list.edges,
            (std::vector<Edge>{
                {s, 2, EdgeType::Sequence}, regular(a), regular(b), regular(x), regular(c)}));
  append({a, b, c});
  EXPECT_EQ(list.edges.front(), (Edge{s, 2, EdgeType::Sequence}));
}

// [x, S, y, x, S] + y with y the first edge of S's body: the search folds the repeat
// [x, S, y] that spans S; a state that only followed S's body would append y.
TEST_F(Folding, ARepeatSpanningTheSequenceEdgeFolds) {
  append({x, y, z, y, z});
  const NodeId s = sequence({regular(y), regular(z)});
  ASSERT_EQ(list.edges, (std::vector<Edge>{regular(x), {s, 2, EdgeType::Sequence}}));
  append({y, x, y, z, y, z});
  ASSERT_EQ(list.edges, (std::vector<Edge>{regular(x),
                                           {s, 2, EdgeType::Sequence},
                                           regular(y),
                                           regular(x),
                                           {s, 2, EdgeType::Sequence}}));
  append({y});
  const NodeId outer = sequence({regular(x), {s, 2, EdgeType::Sequence}, regular(y)});
  EXPECT_EQ(list.edges, (std::vector<Edge>{{outer, 2, EdgeType::Sequence}}));
}

// A fold that reaches below the watched Sequence edge (an outer loop's body completes):
// the state for the inner one is dropped, and the outer body is then followed.
TEST_F(Folding, AFoldBelowTheWatchedEdgeDropsTheState) {
  append({a, b, a, b, c, a, b, a, b, c});
  const NodeId inner = sequence({regular(a), regular(b)});
  const NodeId outer = sequence({{inner, 2, EdgeType::Sequence}, regular(c)});
  ASSERT_EQ(list.edges, (std::vector<Edge>{{outer, 2, EdgeType::Sequence}}));
  append({a, b, a, b, c, a, b, a, b, c, a, b});
  EXPECT_EQ(list.edges,
            (std::vector<Edge>{{outer, 4, EdgeType::Sequence}, regular(a), regular(b)}));
}

// A Sequence edge before S whose body ends where the tail would: the search joins the tail
// to it, before S's body is complete.
TEST_F(Folding, AnEarlierSequenceEdgeTakesTheTail) {
  append({a, b, c, a, b, c, x, a, b, a, b, x, a, b, a, b});
  EXPECT_EQ(list.edges, plain);
  append({a, b, a, b, x});
  EXPECT_EQ(list.edges, plain);
}

// Random programs of nested loops over few symbols (so that unrelated edges often look
// alike), some events repeated in place, some edges to Sequence nodes appended as such (as
// a merge of DAGs may), and plain random streams: both lists agree after every append.
void randomProgram(std::mt19937& rng, int depth, std::vector<std::pair<uint32_t, int>>& out) {
  std::uniform_int_distribution<int> pick(0, 9);
  const int parts = 1 + pick(rng) % 4;
  for (int i = 0; i < parts; ++i) {
    const int what = pick(rng);
    if (what < 3 && depth < 3) {
      std::vector<std::pair<uint32_t, int>> body;
      randomProgram(rng, depth + 1, body);
      const int iterations = 1 + pick(rng) % 6;
      for (int k = 0; k < iterations; ++k) out.insert(out.end(), body.begin(), body.end());
    } else {
      out.emplace_back(static_cast<uint32_t>(pick(rng) % 4), what == 9 ? 2 : 1);
    }
  }
}

TEST_F(Folding, RandomStreamsGiveTheEdgesOfTheFullSearch) {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    std::vector<std::pair<uint32_t, int>> stream;
    while (stream.size() < 400) randomProgram(rng, 0, stream);
    if (seed % 3 == 0) {
      for (auto& [symbol, repetitions] : stream) symbol = rng() % 3;
    }
    list.clear();
    plain.clear();
    for (const auto& [symbol, repetitions] : stream) {
      if (rng() % 16 == 0) {
        const NodeId some = static_cast<NodeId>(rng() % model.nodes.size());
        if (model.nodes[some].kind == NodeKind::Sequence)
          appendOne(some, 1 + rng() % 2, EdgeType::Sequence);
      }
      appendOne(leaf(symbol), static_cast<uint64_t>(repetitions));
      if (HasFatalFailure()) FAIL() << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace mtf::compaction
