#include "tag/graph_writer.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>

namespace mtf::tag {
namespace {

struct Key {
  const char* id;
  const char* domain;  // node, edge, graph
  const char* name;
  const char* type;  // string, long, double
};

constexpr Key kKeys[] = {
    {"g_resolution", "graph", "resolution", "long"},
    {"g_unmatched_sends", "graph", "unmatched_sends", "long"},
    {"g_unmatched_receives", "graph", "unmatched_receives", "long"},
    {"g_unmatched_collectives", "graph", "unmatched_collectives", "long"},
    {"g_unmatched_requests", "graph", "unmatched_requests", "long"},
    {"n_name", "node", "name", "string"},
    {"n_callpath", "node", "callpath", "string"},
    {"n_kind", "node", "kind", "string"},
    {"n_ranks", "node", "ranks", "string"},
    {"n_location", "node", "location", "long"},
    {"n_count", "node", "count", "long"},
    {"n_total_ns", "node", "total_ns", "long"},
    {"n_min_ns", "node", "min_ns", "long"},
    {"n_max_ns", "node", "max_ns", "long"},
    {"n_stddev_ns", "node", "stddev_ns", "double"},
    {"e_kind", "edge", "kind", "string"},
    {"e_count", "edge", "count", "long"},
    {"e_total_ns", "edge", "total_ns", "long"},
    {"e_min_ns", "edge", "min_ns", "long"},
    {"e_max_ns", "edge", "max_ns", "long"},
    {"e_stddev_ns", "edge", "stddev_ns", "double"},
    {"e_bytes", "edge", "bytes", "long"},
};

// XML character data: the five special characters escaped; control characters XML 1.0
// cannot hold become '?'.
std::string xmlText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

std::string stddevText(long double ns) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3Lf", ns);
  return buffer;
}

void data(std::ostream& out, const char* key, const std::string& value) {
  out << "      <data key=\"" << key << "\">" << value << "</data>\n";
}

// count, total_ns, min_ns, max_ns, stddev_ns of a profile, keys prefixed by `p` (n_ or e_).
void profileData(std::ostream& out, const std::string& p, const Profile& profile,
                 uint64_t resolution) {
  data(out, (p + "count").c_str(), std::to_string(profile.count));
  data(out, (p + "total_ns").c_str(), std::to_string(ticksToNs(profile.total, resolution)));
  data(out, (p + "min_ns").c_str(), std::to_string(ticksToNs(profile.minOrZero(), resolution)));
  data(out, (p + "max_ns").c_str(), std::to_string(ticksToNs(profile.max, resolution)));
  data(out, (p + "stddev_ns").c_str(),
       stddevText(ticksToNsReal(profile.stddevTicks(), resolution)));
}

void nodeNaming(std::ostream& out, const ActivityGraph& graph, const PtagNode& node,
                const char* kind) {
  data(out, "n_name", xmlText(graph.paths.leaf(node.path)));
  data(out, "n_callpath", xmlText(graph.paths.text(node.path)));
  data(out, "n_kind", kind);
  data(out, "n_ranks", rankRanges(node.ranks));
  if (node.location) data(out, "n_location", std::to_string(*node.location));
}

void writeNode(std::ostream& out, const ActivityGraph& graph, const PtagNode& node, size_t index) {
  out << "    <node id=\"n" << index << "\">\n";
  nodeNaming(out, graph, node, nameOf(node.kind));
  profileData(out, "n_", node.profile, graph.resolution);
  out << "    </node>\n";
}

// Per process: another process's node that an incoming edge comes from, without profile.
void writeRemoteNode(std::ostream& out, const ActivityGraph& graph, const PtagNode& node,
                     size_t index) {
  out << "    <node id=\"r" << index << "\">\n";
  nodeNaming(out, graph, node, "remote");
  out << "    </node>\n";
}

void writeEdge(std::ostream& out, const ActivityGraph& graph, const PtagEdge& edge,
               bool remoteSource = false) {
  out << "    <edge source=\"" << (remoteSource ? 'r' : 'n') << edge.from << "\" target=\"n"
      << edge.to << "\">\n";
  data(out, "e_kind", nameOf(edge.kind));
  if (edge.kind == EdgeKind::Process || edge.kind == EdgeKind::Completion) {
    profileData(out, "e_", edge.data.profile, graph.resolution);
  } else {
    data(out, "e_count", std::to_string(edge.data.count));
    if (edge.kind == EdgeKind::Message) data(out, "e_bytes", std::to_string(edge.data.bytes));
  }
  out << "    </edge>\n";
}

void graphData(std::ostream& out, const ActivityGraph& graph) {
  data(out, "g_resolution", std::to_string(graph.resolution));
  data(out, "g_unmatched_sends", std::to_string(graph.unmatched.sends));
  data(out, "g_unmatched_receives", std::to_string(graph.unmatched.receives));
  data(out, "g_unmatched_collectives", std::to_string(graph.unmatched.collectives));
  data(out, "g_unmatched_requests", std::to_string(graph.unmatched.requests));
}

// Per process: location -> (its nodes, the edges into them).
struct ProcessGraph {
  std::vector<size_t> nodes;
  std::vector<size_t> edges;
};
std::map<LocationId, ProcessGraph> byLocation(const Ptag& ptag) {
  std::map<LocationId, ProcessGraph> out;
  for (size_t i = 0; i < ptag.nodes.size(); ++i)
    out[ptag.nodes[i].location.value_or(0)].nodes.push_back(i);
  for (size_t i = 0; i < ptag.edges.size(); ++i)
    out[ptag.nodes[ptag.edges[i].to].location.value_or(0)].edges.push_back(i);
  return out;
}

}  // namespace

void writeGraphml(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
                  const GraphWriteOptions& options) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
         "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
         "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
         "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n";
  for (const Key& k : kKeys)
    out << "  <key id=\"" << k.id << "\" for=\"" << k.domain << "\" attr.name=\"" << k.name
        << "\" attr.type=\"" << k.type << "\"/>\n";
  if (!options.perProcess) {
    out << "  <graph id=\"ptag\" edgedefault=\"directed\">\n";
    graphData(out, graph);
    for (size_t i = 0; i < ptag.nodes.size(); ++i) writeNode(out, graph, ptag.nodes[i], i);
    for (const PtagEdge& e : ptag.edges) writeEdge(out, graph, e);
    out << "  </graph>\n";
  } else {
    for (const auto& [location, process] : byLocation(ptag)) {
      out << "  <graph id=\"tag" << location << "\" edgedefault=\"directed\">\n";
      graphData(out, graph);
      for (size_t i : process.nodes) writeNode(out, graph, ptag.nodes[i], i);
      std::set<size_t> remote;
      for (size_t i : process.edges) {
        const size_t from = ptag.edges[i].from;
        if (ptag.nodes[from].location != location && remote.insert(from).second)
          writeRemoteNode(out, graph, ptag.nodes[from], from);
      }
      for (size_t i : process.edges)
        writeEdge(out, graph, ptag.edges[i], remote.count(ptag.edges[i].from) > 0);
      out << "  </graph>\n";
    }
  }
  out << "</graphml>\n";
}

}  // namespace mtf::tag
