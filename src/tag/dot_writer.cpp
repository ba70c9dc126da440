// Graphviz DOT output of a PTAG: boxes for communication activities, ellipses for markers;
// process edges solid, message edges dashed blue, collective edges dotted green,
// completion edges dotted grey. Labels carry the name, ranks, count and total time; the
// GraphML attributes (kind, count, total_ns, ranks, location, bytes) are DOT attributes too.
#include <cstdio>
#include <map>
#include <string>

#include "tag/graph_writer.hpp"

namespace mtf::tag {
namespace {

std::string dotText(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    out += c;
  }
  return out;
}

std::string timeText(int64_t ns) {
  char buffer[48];
  if (ns >= 1'000'000)
    std::snprintf(buffer, sizeof buffer, "%.3f ms", ns / 1e6);
  else if (ns >= 1'000)
    std::snprintf(buffer, sizeof buffer, "%.3f us", ns / 1e3);
  else
    std::snprintf(buffer, sizeof buffer, "%lld ns", static_cast<long long>(ns));
  return buffer;
}

const char* edgeStyle(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::Process:
      return "style=solid";
    case EdgeKind::Message:
      return "style=dashed, color=blue";
    case EdgeKind::Collective:
      return "style=dotted, color=darkgreen";
    case EdgeKind::Completion:
      return "style=dotted, color=grey40";
  }
  return "";
}

void writeDotNode(std::ostream& out, const ActivityGraph& graph, const PtagNode& node,
                  size_t index) {
  out << "    n" << index << " [shape=" << (node.kind == NodeKind::Marker ? "ellipse" : "box")
      << ", label=\"";
  // The caller too: one MPI call made from several places is several nodes.
  if (const PathId parent = graph.paths.parent(node.path); parent != CallPaths::kRoot)
    out << dotText(graph.paths.leaf(parent)) << "/\\n";
  out << dotText(graph.paths.leaf(node.path));
  if (!node.ranks.empty()) out << "\\nranks " << rankRanges(node.ranks);
  if (node.location) out << "\\nlocation " << *node.location;
  if (node.kind == NodeKind::Communication)
    out << "\\n"
        << node.profile.count << "x, " << timeText(ticksToNs(node.profile.total, graph.resolution));
  out << "\", tooltip=\"" << dotText(graph.paths.text(node.path)) << "\"";
  // The GraphML attributes too, for tools that read DOT (networkx through pydot).
  out << ", kind=\"" << nameOf(node.kind) << "\", count=" << node.profile.count
      << ", total_ns=" << ticksToNs(node.profile.total, graph.resolution);
  if (!node.ranks.empty()) out << ", ranks=\"" << rankRanges(node.ranks) << "\"";
  if (node.location) out << ", location=" << *node.location;
  out << "];\n";
}

void writeDotEdge(std::ostream& out, const ActivityGraph& graph, const PtagEdge& edge) {
  out << "  n" << edge.from << " -> n" << edge.to << " [" << edgeStyle(edge.kind) << ", label=\""
      << edge.data.occurrences() << "x";
  if (edge.kind == EdgeKind::Process || edge.kind == EdgeKind::Completion)
    out << ", " << timeText(ticksToNs(edge.data.profile.total, graph.resolution));
  if (edge.kind == EdgeKind::Message) out << ", " << edge.data.bytes << " B";
  out << "\", kind=\"" << nameOf(edge.kind) << "\", count=" << edge.data.occurrences();
  if (edge.kind == EdgeKind::Message) out << ", bytes=" << edge.data.bytes;
  out << "];\n";
}

}  // namespace

void writeDot(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
              const GraphWriteOptions& options) {
  out << "digraph ptag {\n  node [fontsize=10];\n  edge [fontsize=8];\n";
  for (size_t i = 0; i < ptag.nodes.size(); ++i) writeDotNode(out, graph, ptag.nodes[i], i);
  if (options.perProcess) {
    // One cluster per location, naming its nodes (declared above with their attributes,
    // where every DOT reader finds them).
    std::map<LocationId, std::vector<size_t>> clusters;
    for (size_t i = 0; i < ptag.nodes.size(); ++i)
      clusters[ptag.nodes[i].location.value_or(0)].push_back(i);
    for (const auto& [location, nodes] : clusters) {
      out << "  subgraph cluster_" << location << " {\n    label=\"location " << location
          << "\";\n   ";
      for (size_t i : nodes) out << " n" << i << ";";
      out << "\n  }\n";
    }
  }
  for (const PtagEdge& e : ptag.edges) writeDotEdge(out, graph, e);
  out << "}\n";
}

}  // namespace mtf::tag
