// Builds the ordered DAG: interns signatures and nodes (hash-consing, so identical
// subtrees of all locations are stored once) and appends children to open child lists,
// collapsing contiguous repeats on the fly.
#pragma once

#include <unordered_map>
#include <vector>

#include "compaction/compact_model.hpp"

namespace mtf::compaction {

class DagBuilder {
 public:
  // `model` receives the signatures and nodes; it must outlive the builder.
  explicit DagBuilder(CompactModel& model) : model_(model) {}

  SigId intern(const Signature& sig);
  NodeId leaf(SigId sig);
  // A call node; `children` is consumed.
  NodeId call(SigId enter, SigId leave, std::vector<Edge>&& children);
  // A Sequence node over `children` (a repeated loop body, or a location's root).
  NodeId sequence(std::vector<Edge>&& children);

  // Appends `child` (repeated `repetitions` times) to `list`, the children of an open
  // call of `parentRegion` (kUndefinedRef for a root), and folds contiguous repeats:
  //  - the same child again: its edge's repetitions grow;
  //  - the last p edges repeat the p edges before them (p <= kMaxPeriod): both become one
  //    edge to a Sequence node of those p edges, repeated twice;
  //  - the last p edges equal the body of the Sequence edge just before them: that
  //    edge's repetitions grow by one.
  // Folding never reorders events, so the expansion is unchanged.
  void append(std::vector<Edge>& list, NodeId child, uint64_t repetitions, Ref parentRegion);

  static constexpr size_t kMaxPeriod = 48;

 private:
  NodeId internNode(Node&& node);
  EdgeType edgeType(NodeId child, Ref parentRegion) const;
  bool foldTail(std::vector<Edge>& list);
  uint64_t eventCountOf(const std::vector<Edge>& edges) const;

  CompactModel& model_;
  std::unordered_map<uint64_t, SigId> sigHead_;    // hash -> first signature with it
  std::vector<SigId> sigChain_;                    // next signature with the same hash
  std::unordered_map<uint64_t, NodeId> nodeHead_;  // hash -> first node with it
  std::vector<NodeId> nodeChain_;
  std::vector<NodeId> leafOfSig_;
};

// The region of a call signature (its Enter's region field).
inline Ref regionOf(const Signature& s) {
  return s.fields.empty() ? kUndefinedRef : static_cast<Ref>(s.fields[0]);
}

}  // namespace mtf::compaction
