// Joins the members of each collective operation: on one communicator every member calls
// the collectives in the same order, so the n-th collective of each member is one
// instance. Members' calls wait in run-length coded queues (one run = one node repeated)
// until every member has one; an instance is then the members' nodes (plus the operation
// and root), and identical instances are counted, not stored again. At the end each
// distinct instance becomes collective edges: root to every other member (Bcast,
// Scatter[v]), every other member to the root (Gather[v], Reduce), or every member to
// every other (all other operations; handle and memory operations get no edges).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

#include "model/mpi_ranks.hpp"
#include "tag/activity_graph.hpp"

namespace mtf::tag {

class CollectiveMatcher {
 public:
  explicit CollectiveMatcher(const RankMap& ranks) : ranks_(ranks) {}
  // A collective call of `location` on `comm` made in `node`; `root` is the root's rank in
  // `comm` as the event gives it.
  void collective(Ref comm, LocationId location, NodeId node, uint8_t op, uint64_t root);
  // Adds the edges of every completed instance; counts the calls still waiting.
  void finish(ActivityGraph& graph);
  size_t runs() const;

 private:
  struct Run {
    NodeId node;
    uint8_t op;
    uint64_t root;
    uint64_t count;
  };
  struct CommQueues {
    std::vector<std::deque<Run>> members;  // index: rank in the communicator
    size_t nonEmpty = 0;
  };
  void complete(CommQueues& q);
  static void addEdges(ActivityGraph& graph, const std::vector<NodeId>& nodes, uint8_t op,
                       uint64_t root, uint64_t count);

  const RankMap& ranks_;
  std::unordered_map<Ref, CommQueues> comms_;
  // Distinct instances: members' nodes, then op and root -> how many.
  std::map<std::vector<uint64_t>, uint64_t> instances_;
  uint64_t unknownComm_ = 0;
};

}  // namespace mtf::tag
