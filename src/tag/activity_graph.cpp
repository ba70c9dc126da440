#include "tag/activity_graph.hpp"

#include <algorithm>

namespace mtf::tag {

const char* nameOf(NodeKind kind) {
  return kind == NodeKind::Marker ? "marker" : "communication";
}

const char* nameOf(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::Process:
      return "process";
    case EdgeKind::Message:
      return "message";
    case EdgeKind::Collective:
      return "collective";
    case EdgeKind::Completion:
      return "completion";
  }
  return "?";
}

std::vector<Edge> ActivityGraph::sortedEdges() const {
  std::vector<Edge> out;
  out.reserve(edges.size());
  for (const auto& [key, data] : edges) out.push_back({key, data});
  std::sort(out.begin(), out.end(), [](const Edge& a, const Edge& b) {
    if (a.key.kind != b.key.kind) return a.key.kind < b.key.kind;
    if (a.key.from != b.key.from) return a.key.from < b.key.from;
    return a.key.to < b.key.to;
  });
  return out;
}

}  // namespace mtf::tag
