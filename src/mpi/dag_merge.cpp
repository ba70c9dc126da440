#include "mpi/dag_merge.hpp"

#include <algorithm>
#include <unordered_map>

#include "compaction/dag_builder.hpp"

namespace mtf::mpi {

using compaction::CompactModel;
using compaction::Edge;
using compaction::kNoNode;
using compaction::kNoSig;
using compaction::LocationModel;
using compaction::NodeId;
using compaction::SigId;

namespace {

// Copies the DAG of one part into the merged model, node by node in post-order.
class PartCopier {
 public:
  PartCopier(const CompactModel& part, compaction::DagBuilder& builder)
      : part_(part), builder_(builder), nodes_(part.nodes.size(), kNoNode) {}

  NodeId copy(NodeId root) {
    if (root == kNoNode) return kNoNode;
    // Explicit stack: call trees may be thousands of levels deep.
    std::vector<std::pair<NodeId, size_t>> stack{{root, 0}};
    while (!stack.empty()) {
      auto& [id, next] = stack.back();
      const compaction::Node& n = part_.nodes.at(id);
      if (nodes_[id] != kNoNode) {
        stack.pop_back();
      } else if (next < n.edges.size()) {
        const NodeId child = n.edges[next++].child;
        if (nodes_.at(child) == kNoNode) stack.push_back({child, 0});
      } else {
        nodes_[id] = place(n);
        stack.pop_back();
      }
    }
    return nodes_[root];
  }

 private:
  NodeId place(const compaction::Node& n) {
    edges_.assign(n.edges.begin(), n.edges.end());
    for (Edge& e : edges_) e.child = nodes_[e.child];
    const SigId sig = signature(n.sig);
    return builder_.copyOf(n, sig, signature(n.leaveSig), edges_);
  }
  SigId signature(SigId id) {
    if (id == kNoSig) return kNoSig;
    if (sigs_.size() <= id) sigs_.resize(size_t{id} + 1, kNoSig);
    if (sigs_[id] == kNoSig) sigs_[id] = builder_.intern(part_.signatures.at(id));
    return sigs_[id];
  }

  const CompactModel& part_;
  compaction::DagBuilder& builder_;
  std::vector<NodeId> nodes_;  // part's node -> merged node
  std::vector<SigId> sigs_;    // part's signature -> merged signature
  std::vector<Edge> edges_;    // scratch
};

struct Placed {
  const LocationModel* location;
  size_t part;
};

// The locations of every part in definition order, those without a definition after, by id.
std::vector<Placed> locationOrder(const std::vector<const CompactModel*>& parts,
                                  const Definitions& defs) {
  const DefinitionOrder order(defs);
  std::vector<Placed> placed;
  for (size_t p = 0; p < parts.size(); ++p)
    for (const LocationModel& l : parts[p]->locations) placed.push_back({&l, p});
  std::stable_sort(placed.begin(), placed.end(), [&](const Placed& a, const Placed& b) {
    return order.key(a.location->location) < order.key(b.location->location);
  });
  return placed;
}

}  // namespace

CompactModel mergeStructures(const std::vector<const CompactModel*>& parts,
                             const Definitions& defs) {
  CompactModel merged;
  merged.definitions = defs;
  compaction::DagBuilder builder(merged);
  std::vector<PartCopier> copiers;
  copiers.reserve(parts.size());
  for (const CompactModel* part : parts) copiers.emplace_back(*part, builder);
  for (const Placed& p : locationOrder(parts, defs)) {
    LocationModel l;
    l.location = p.location->location;
    l.eventCount = p.location->eventCount;
    l.annotations = p.location->annotations;
    l.root = copiers[p.part].copy(p.location->root);
    merged.locations.push_back(std::move(l));
  }
  for (const CompactModel* part : parts)
    merged.annotations.insert(merged.annotations.end(), part->annotations.begin(),
                              part->annotations.end());
  return merged;
}

}  // namespace mtf::mpi
