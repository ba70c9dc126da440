// The Task Activity Graphs of all processes in one structure (seed 004, sections 2.1-2.3):
// a node is one call path on one location (a communication activity, or a START / END
// marker), an edge joins two nodes and carries a profile. The PTAG is this graph whole;
// a process's TAG is its nodes with the edges between them.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "model/types.hpp"
#include "tag/call_paths.hpp"
#include "tag/profile.hpp"

namespace mtf::tag {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

enum class NodeKind : uint8_t { Communication, Marker };
// Process: consecutive activities of one process (the computation between them).
// Message: a point-to-point message from its send node to its receive node.
// Collective: one member of a collective operation to another (who sends to whom follows
// the operation: root to all, all to root, or all to all).
// Completion: a non-blocking operation's start node to the node that completes it.
enum class EdgeKind : uint8_t { Process, Message, Collective, Completion };

const char* nameOf(NodeKind kind);
const char* nameOf(EdgeKind kind);

struct Node {
  LocationId location = 0;
  int64_t worldRank = -1;  // -1: the location is not an MPI rank
  PathId path = CallPaths::kRoot;
  NodeKind kind = NodeKind::Communication;
  Profile profile;  // the activity's own time (zero for markers)
};

struct EdgeKey {
  NodeId from = 0;
  NodeId to = 0;
  EdgeKind kind = EdgeKind::Process;
  bool operator==(const EdgeKey&) const = default;
};
struct EdgeKeyHash {
  size_t operator()(const EdgeKey& k) const {
    return std::hash<uint64_t>()((uint64_t{k.from} << 32 | k.to) * 4 +
                                 static_cast<uint8_t>(k.kind));
  }
};

struct EdgeData {
  Profile profile;     // process: computation time; completion: request lifetime
  uint64_t count = 0;  // message and collective edges (no time: see tag_builder.hpp)
  uint64_t bytes = 0;  // message edges
  uint64_t occurrences() const { return profile.count + count; }
};

struct Edge {
  EdgeKey key;
  EdgeData data;
};

// Counts of what could not be joined by an edge.
struct Unmatched {
  uint64_t sends = 0;        // sends without a receive (or with an unknown receiver)
  uint64_t receives = 0;     // receives without a send
  uint64_t collectives = 0;  // collective calls whose instance never completed
  uint64_t requests = 0;     // non-blocking starts never completed
};

struct ActivityGraph {
  uint64_t resolution = 1'000'000'000;  // ticks per second
  CallPaths paths;
  std::vector<Node> nodes;
  std::unordered_map<EdgeKey, EdgeData, EdgeKeyHash> edges;
  Unmatched unmatched;

  EdgeData& edge(NodeId from, NodeId to, EdgeKind kind) { return edges[{from, to, kind}]; }
  // The edges sorted by (kind, from, to): the deterministic order of every output.
  std::vector<Edge> sortedEdges() const;
};

}  // namespace mtf::tag
