// The Parallel TAG (seed 004, section 2.3): every process's TAG in one graph, the message,
// collective and completion edges joining them. With `foldRanks` the nodes of one call
// path on different ranks become one node (their profiles merged, the ranks listed), and
// so do the edges between them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/rank_ranges.hpp"
#include "tag/activity_graph.hpp"

namespace mtf::tag {

struct PtagNode {
  PathId path = CallPaths::kRoot;
  NodeKind kind = NodeKind::Communication;
  std::vector<int64_t> ranks;          // world ranks, sorted (empty: no MPI rank)
  std::optional<LocationId> location;  // unfolded nodes: their location
  Profile profile;
};

struct PtagEdge {
  size_t from = 0;
  size_t to = 0;
  EdgeKind kind = EdgeKind::Process;
  EdgeData data;
};

struct Ptag {
  std::vector<PtagNode> nodes;  // unfolded: by location, then first appearance
  std::vector<PtagEdge> edges;  // by kind, from, to
};

Ptag buildPtag(const ActivityGraph& graph, bool foldRanks);

using mtf::rankRanges;  // "0-15", "1-3,5" (model/rank_ranges.hpp)

}  // namespace mtf::tag
