// DagBuilder's folding of contiguous repeats: the search over every period (foldTail) and
// the per-list state that spares it inside a repeated loop body (TailRepeat).
//
// Why the state's answer is the search's. The list is X + [S] + B[0..m], S a Sequence edge
// of body B (P edges, 2 <= P <= kMaxPeriod), after appending B[m]. The search tries the
// periods p = 2, 3, ... in order; the edge `before` the last p edges is
//  - for p <= m, inside B[0..m]: whether it folds depends on B alone, as if B[0..m] were the
//    whole list (a repeat of 2p edges reaching back to S cannot match: S is no edge of its
//    own body). bodyUnsafe() runs the search on each prefix of B once;
//  - for p = m + 1, S: it folds exactly when m + 1 = P (S's body is the tail; S cannot
//    equal the last edge, an edge of its body);
//  - for p > m + 1, in X, at distance d = p - m - 1 from S: a repeat of 2p edges needs an
//    edge equal to S in X within kMaxPeriod edges before S, and a join needs a Sequence
//    edge there whose body has p edges, i.e. m = (body size) - d - 1. watchTail() marks
//    those cases unsafe (conservatively: any edge of S's child, and every such m).
// After S grows by one (the list is X + [S]), the search can only fold with an edge of X:
// the case m = -1 (bit 0). Where the state is unsafe, the search runs (settle()).
#include <algorithm>
#include <type_traits>

#include "compaction/dag_builder.hpp"

namespace mtf::compaction {

// TailRepeat::body points into a node's edges: the node vector's growth must move each
// node (keeping its edge buffer), never copy it.
static_assert(std::is_nothrow_move_constructible_v<Node>);

DagBuilder::FoldAt DagBuilder::findFold(const Edge* data, size_t size) const {
  // By pointer and reference: nothing is written to the list until a fold is found.
  const Edge* const end = data + size;
  const Edge& last = end[-1];
  const size_t maxPeriod = std::min(kMaxPeriod, size - 1);
  for (size_t p = 2; p <= maxPeriod; ++p) {
    const Edge* const tail = end - p;  // the last p edges
    // The edge before them: a Sequence whose body may be the last p edges, or the start
    // of p edges that the last p may repeat (then it equals the last edge).
    const Edge& before = tail[-1];
    if (before.type == EdgeType::Sequence) {
      const std::vector<Edge>& body = model_.nodes[before.child].edges;
      if (body.size() == p && body.back() == last && std::equal(body.begin(), body.end(), tail))
        return {p, true};
    }
    if (before.child == last.child && 2 * p <= size && before == last &&
        std::equal(tail - p, tail, tail))
      return {p, false};
  }
  return {};
}

bool DagBuilder::foldTail(std::vector<Edge>& list) {
  const size_t size = list.size();
  if (size < 3) return false;
  const FoldAt fold = findFold(list.data(), size);
  if (fold.p == 0) return false;
  if (fold.intoSequence) {
    list[size - fold.p - 1].repetitions += 1;
    list.resize(size - fold.p);
    lowWater_ = std::min(lowWater_, size - fold.p);
  } else {
    lowWater_ = std::min(lowWater_, size - 2 * fold.p);
    foldRepeat(list, fold.p);
  }
  return true;
}

// The last 2p edges of `list` are p edges twice: they become one Sequence edge.
void DagBuilder::foldRepeat(std::vector<Edge>& list, size_t p) {
  body_.assign(list.end() - static_cast<ptrdiff_t>(p), list.end());
  list.resize(list.size() - 2 * p);
  const NodeId seq = sequence(body_);
  if (!list.empty() && list.back().child == seq) {
    list.back().repetitions += 2;
  } else {
    list.push_back(Edge{seq, 2, EdgeType::Sequence});
  }
}

void DagBuilder::appendSearching(ChildList& list, const Edge& edge) {
  std::vector<Edge>& edges = list.edges;
  TailRepeat& r = list.repeat;
  // The edge may continue S's body where the state was unsafe: if nothing folds, the
  // tail still repeats the body.
  const uint32_t next =
      r.matched != TailRepeat::kNone && r.body[r.matched] == edge && edge.type != EdgeType::Sequence
          ? r.matched + 1
          : TailRepeat::kNone;
  if (!edges.empty() && edges.back().child == edge.child) {
    edges.back().repetitions += edge.repetitions;
  } else {
    edges.push_back(edge);
  }
  const size_t size = edges.size();
  settle(list);
  if (next != TailRepeat::kNone && next < r.bodySize && lowWater_ == size && edges.size() == size &&
      r.seqIndex + next + 1 == size)
    r.matched = next;
}

void DagBuilder::settle(ChildList& list) {
  std::vector<Edge>& edges = list.edges;
  TailRepeat& r = list.repeat;
  lowWater_ = edges.size();
  while (edges.size() >= 3 && foldTail(edges)) {  // fewer than 3 edges never fold
  }
  // S and the edges before it are as they were if no fold reached them.
  const bool intact = r.seqIndex != SIZE_MAX && lowWater_ > r.seqIndex;
  if (!edges.empty() && edges.back().type == EdgeType::Sequence) {
    if (intact && edges.size() - 1 == r.seqIndex) {
      r.matched = 0;
    } else {
      watchTail(list);
    }
  } else if (intact) {
    r.matched = TailRepeat::kNone;
  } else {
    r = TailRepeat{};
  }
}

void DagBuilder::watchTail(ChildList& list) {
  const std::vector<Edge>& edges = list.edges;
  TailRepeat& r = list.repeat;
  const size_t s = edges.size() - 1;
  const NodeId seq = edges[s].child;
  const std::vector<Edge>& body = model_.nodes[seq].edges;
  if (body.size() < 2 || body.size() > kMaxPeriod) {
    r = TailRepeat{};
    return;
  }
  uint64_t unsafe = bodyUnsafe(seq);
  // The edges of X the search can reach (see the top of this file).
  for (size_t d = 1; d <= std::min(s, kMaxPeriod); ++d) {
    const Edge& e = edges[s - d];
    if (e.child == seq) {
      unsafe = ~uint64_t{0};
      break;
    }
    if (e.type == EdgeType::Sequence) {
      const size_t q = model_.nodes[e.child].edges.size();
      if (q >= d && q - d < 64) unsafe |= uint64_t{1} << (q - d);  // bit m + 1, m = q - d - 1
    }
  }
  r.seqIndex = s;
  r.matched = 0;
  r.bodySize = static_cast<uint32_t>(body.size());
  r.body = body.data();
  r.unsafe = unsafe;
}

uint64_t DagBuilder::bodyUnsafe(NodeId sequence) {
  if (sequence >= bodyUnsafe_.size()) bodyUnsafe_.resize(size_t{sequence} + 1, kUnknownMask);
  if (bodyUnsafe_[sequence] != kUnknownMask) return bodyUnsafe_[sequence];
  const std::vector<Edge>& body = model_.nodes[sequence].edges;
  uint64_t unsafe = 0;
  for (size_t j = 0; j < body.size(); ++j) {
    // Appending body[j] would grow body[j - 1] instead, or the search folds inside B[0..j].
    const bool merges = j > 0 && body[j - 1].child == body[j].child;
    if (merges || findFold(body.data(), j + 1).p != 0) unsafe |= uint64_t{1} << (j + 1);
  }
  return bodyUnsafe_[sequence] = unsafe;
}

}  // namespace mtf::compaction
