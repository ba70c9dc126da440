// Builds the ordered DAG: interns signatures and nodes (hash-consing, so identical
// subtrees of all locations are stored once) and appends children to open child lists,
// collapsing contiguous repeats on the fly.
#pragma once

#include <vector>

#include "compaction/child_list.hpp"
#include "compaction/compact_model.hpp"
#include "compaction/recent_pair.hpp"

namespace mtf::compaction {

// The region of a call signature (its Enter's region field).
inline Ref regionOf(const Signature& s) {
  return s.fields.empty() ? kUndefinedRef : static_cast<Ref>(s.fields[0]);
}

class DagBuilder {
 public:
  // `model` receives the signatures and nodes; it must outlive the builder.
  explicit DagBuilder(CompactModel& model) : model_(model) {}

  SigId intern(const Signature& sig);
  NodeId leaf(SigId sig) {
    if (sig < leafOfSig_.size() && leafOfSig_[sig] != kNoNode) [[likely]]
      return leafOfSig_[sig];
    return newLeaf(sig);
  }
  // A call node over `children` (copied only if the node is new: the caller reuses them).
  NodeId call(SigId enter, SigId leave, const std::vector<Edge>& children) {
    if (enter < lastCallsOf_.size()) [[likely]] {
      RecentPair<NodeId, kNoNode>& recent = lastCallsOf_[enter];
      const int first = recent.first();
      for (const int slot : {first, 1 - first}) {
        const NodeId id = recent[slot];
        if (id != kNoNode && model_.nodes[id].leaveSig == leave &&
            model_.nodes[id].edges == children) {
          recent.use(slot);
          return id;
        }
      }
    }
    return newCall(enter, leave, children);
  }
  // A Sequence node over `children` (a repeated loop body, or a location's root).
  NodeId sequence(const std::vector<Edge>& children);
  // A node copied from another model, its signatures and children already interned here
  // (mtf-mpi merges the DAGs of its processes so).
  NodeId copyOf(const Node& n, SigId sig, SigId leaveSig, const std::vector<Edge>& edges) {
    return internNode(n.kind, sig, leaveSig, edges);
  }

  // Appends `child` (repeated `repetitions` times) to `list`, the children of an open
  // call of `parentRegion` (kUndefinedRef for a root), and folds contiguous repeats:
  //  - the same child again: its edge's repetitions grow;
  //  - the last p edges repeat the p edges before them (p <= kMaxPeriod): both become one
  //    edge to a Sequence node of those p edges, repeated twice;
  //  - the last p edges equal the body of the Sequence edge just before them: that
  //    edge's repetitions grow by one.
  // Folding never reorders events, so the expansion is unchanged.
  void append(std::vector<Edge>& list, NodeId child, uint64_t repetitions, Ref parentRegion) {
    appendTyped(list, child, repetitions, edgeType(child, parentRegion));
  }
  // append() when the caller knows the edge's type (edgeType(child, parentRegion)): the
  // compactor does (a leaf's edge is Regular; a call's is Recursive if the parent call is
  // of its region), and spares the lookups of the child's kind and region.
  void appendTyped(std::vector<Edge>& list, NodeId child, uint64_t repetitions, EdgeType type) {
    if (!list.empty() && list.back().child == child) {
      list.back().repetitions += repetitions;
    } else {
      const Edge edge{child, repetitions, type};
      list.push_back(edge);  // an lvalue: push_back's own inline fast path
    }
    while (list.size() >= 3 && foldTail(list)) {  // fewer than 3 edges never fold
    }
  }

  // appendTyped() on a list that keeps its TailRepeat: the same edges, with less search.
  // While the newest edges repeat the body of the Sequence edge S before them, an append
  // that continues the body only compares the edge with the body's next one (and the one
  // that completes it grows S), where the state proves that the search of the other
  // appendTyped() finds that same fold and no other; anywhere else, that search runs.
  [[gnu::always_inline]] inline void appendTyped(ChildList& list, NodeId child,
                                                 uint64_t repetitions, EdgeType type) {
    TailRepeat& r = list.repeat;
    std::vector<Edge>& edges = list.edges;
    const uint32_t m = r.matched;
    bool push;
    if (m != TailRepeat::kNone) {
      const Edge& next = r.body[m];
      push = next.child == child && next.repetitions == repetitions && next.type == type &&
             !((r.unsafe >> (m + 1)) & 1);
      if (push && m + 1 == r.bodySize) {
        edges[r.seqIndex].repetitions += 1;  // the body is complete: S repeats once more
        edges.erase(edges.begin() + static_cast<ptrdiff_t>(r.seqIndex + 1), edges.end());
        r.matched = 0;
        if (r.unsafe & 1) settle(list);
        return;
      }
      if (push) r.matched = m + 1;
    } else {
      // Most lists are a call's one or two children: a new edge there folds nothing (the
      // search needs 3 edges) and leaves no Sequence edge to watch.
      push = edges.size() < 2 && r.seqIndex == SIZE_MAX && type != EdgeType::Sequence &&
             (edges.empty() || edges.back().child != child);
    }
    const Edge edge{child, repetitions, type};
    if (push) {
      edges.push_back(edge);  // an lvalue: push_back's own inline fast path
    } else {
      appendSearching(list, edge);
    }
  }

  static constexpr size_t kMaxPeriod = 48;

 private:
  NodeId internNode(NodeKind kind, SigId sig, SigId leaveSig, const std::vector<Edge>& edges);
  NodeId newLeaf(SigId sig);
  NodeId newCall(SigId enter, SigId leave, const std::vector<Edge>& children);
  EdgeType edgeType(NodeId child, Ref parentRegion) const {
    if (model_.nodes[child].kind == NodeKind::Sequence) return EdgeType::Sequence;
    if (parentRegion != kUndefinedRef && callRegion_[child] == parentRegion)
      return EdgeType::Recursive;
    return EdgeType::Regular;
  }
  // The fold the search takes at the end of data[0..size): the period p (0: none) and
  // whether the last p edges join the Sequence edge before them (else they repeat the p
  // edges before them).
  struct FoldAt {
    size_t p = 0;
    bool intoSequence = false;
  };
  FoldAt findFold(const Edge* data, size_t size) const;
  bool foldTail(std::vector<Edge>& list);
  void foldRepeat(std::vector<Edge>& list, size_t p);
  // ChildList: the search's path (dag_folding.cpp).
  void appendSearching(ChildList& list, const Edge& edge);
  void settle(ChildList& list);     // folds as long as the search finds a fold; updates the state
  void watchTail(ChildList& list);  // the list ends with a Sequence edge: a new state
  uint64_t bodyUnsafe(NodeId sequence);  // the body's part of TailRepeat::unsafe
  uint64_t eventCountOf(const std::vector<Edge>& edges) const;

  // Open addressing over ids whose hashes are kept beside them: a lookup compares the
  // stored hash before the content, and growing never hashes content again.
  class HashIndex {
   public:
    // The id with hash `h` for which `equal(id)` holds, or kNone.
    template <typename Equal>
    uint32_t find(uint64_t h, Equal equal) const {
      if (slots_.empty()) return kNone;
      for (size_t i = h & mask_;; i = (i + 1) & mask_) {
        const uint32_t id = slots_[i];
        if (id == kNone) return kNone;
        if (hashes_[id] == h && equal(id)) return id;
      }
    }
    // Adds id hashes_.size() with hash `h` (not present).
    void add(uint64_t h);
    static constexpr uint32_t kNone = ~uint32_t{0};

   private:
    void place(uint32_t id);
    std::vector<uint32_t> slots_;
    std::vector<uint64_t> hashes_;  // per id
    size_t mask_ = 0;
  };

  CompactModel& model_;
  HashIndex sigIndex_;
  HashIndex nodeIndex_;
  std::vector<NodeId> leafOfSig_;
  // lastCallsOf_[enter]: the two call nodes of that Enter signature met last. Calls of one
  // Enter nearly always repeat one of them (or alternate two, e.g. receives from two
  // neighbours): comparing with those nodes spares hashing the children (a node found is
  // the one hashing finds).
  std::vector<RecentPair<NodeId, kNoNode>> lastCallsOf_;
  std::vector<Ref> callRegion_;  // per node: regionOf its Enter if a call, else undefined
  std::vector<Edge> body_;       // scratch of foldTail
  // The smallest size the list had during the folds of settle(): edges below it are as
  // they were before.
  size_t lowWater_ = 0;
  // Per Sequence node: bodyUnsafe() once computed (kUnknownMask before).
  static constexpr uint64_t kUnknownMask = uint64_t{1} << 63;
  std::vector<uint64_t> bodyUnsafe_;
};

}  // namespace mtf::compaction
