#include "tag/ptag.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace mtf::tag {
namespace {

// The graph's node ids in output order: by location, then in the order they appeared.
std::vector<NodeId> nodeOrder(const ActivityGraph& graph) {
  std::vector<NodeId> order(graph.nodes.size());
  std::iota(order.begin(), order.end(), NodeId{0});
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    return graph.nodes[a].location < graph.nodes[b].location;
  });
  return order;
}

void mergeEdge(EdgeData& into, const EdgeData& from) {
  into.profile.merge(from.profile);
  into.count += from.count;
  into.bytes += from.bytes;
}

}  // namespace

Ptag buildPtag(const ActivityGraph& graph, bool foldRanks) {
  Ptag ptag;
  std::vector<size_t> newIndex(graph.nodes.size());
  std::unordered_map<PathId, size_t> byPath;  // folding: path -> new node
  for (NodeId id : nodeOrder(graph)) {
    const Node& node = graph.nodes[id];
    size_t index = ptag.nodes.size();
    if (foldRanks) {
      const auto [it, inserted] = byPath.try_emplace(node.path, index);
      index = it->second;
    }
    if (index == ptag.nodes.size()) {
      ptag.nodes.push_back({node.path, node.kind, {}, std::nullopt, {}});
      if (!foldRanks) ptag.nodes.back().location = node.location;
    }
    PtagNode& out = ptag.nodes[index];
    out.profile.merge(node.profile);
    if (node.worldRank >= 0) out.ranks.push_back(node.worldRank);
    newIndex[id] = index;
  }
  for (PtagNode& node : ptag.nodes) {
    std::sort(node.ranks.begin(), node.ranks.end());
    node.ranks.erase(std::unique(node.ranks.begin(), node.ranks.end()), node.ranks.end());
  }
  std::unordered_map<EdgeKey, EdgeData, EdgeKeyHash> edges;
  for (const auto& [key, data] : graph.edges) {
    const EdgeKey mapped{static_cast<NodeId>(newIndex[key.from]),
                         static_cast<NodeId>(newIndex[key.to]), key.kind};
    mergeEdge(edges[mapped], data);
  }
  ActivityGraph sorter;  // reuse the deterministic edge order
  sorter.edges = std::move(edges);
  for (const Edge& e : sorter.sortedEdges())
    ptag.edges.push_back({e.key.from, e.key.to, e.key.kind, e.data});
  return ptag;
}

}  // namespace mtf::tag
