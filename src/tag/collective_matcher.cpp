#include "tag/collective_matcher.hpp"

#include <algorithm>

namespace mtf::tag {
namespace {

enum class Flow { OneToAll, AllToOne, AllToAll, None };

// OTF2_CollectiveOp numbering (0 Barrier ... 16 ReduceScatterBlock, then handle and
// memory operations).
Flow flowOf(uint8_t op) {
  switch (op) {
    case 1:  // Bcast
    case 4:  // Scatter
    case 5:  // Scatterv
      return Flow::OneToAll;
    case 2:   // Gather
    case 3:   // Gatherv
    case 12:  // Reduce
      return Flow::AllToOne;
    default:
      return op <= 16 ? Flow::AllToAll : Flow::None;
  }
}

}  // namespace

void CollectiveMatcher::collective(Ref comm, LocationId location, NodeId node, uint8_t op,
                                   uint64_t root) {
  if (ranks_.isSelf(comm)) return;  // one member: nothing to join
  const std::vector<int64_t>* members = ranks_.members(comm);
  const int64_t rank = ranks_.rankIn(comm, location);
  if (!members || rank < 0 || static_cast<size_t>(rank) >= members->size()) {
    ++unknownComm_;
    return;
  }
  CommQueues& q = comms_[comm];
  if (q.members.empty()) q.members.resize(members->size());
  std::deque<Run>& queue = q.members[rank];
  if (queue.empty()) ++q.nonEmpty;
  if (!queue.empty() && queue.back().node == node && queue.back().op == op &&
      queue.back().root == root)
    ++queue.back().count;
  else
    queue.push_back({node, op, root, 1});
  if (q.nonEmpty == q.members.size()) complete(q);
}

// Every member has a call waiting: take as many instances as all fronts hold at once.
void CollectiveMatcher::complete(CommQueues& q) {
  uint64_t n = UINT64_MAX;
  for (const auto& queue : q.members) n = std::min(n, queue.front().count);
  std::vector<uint64_t> key;
  key.reserve(q.members.size() + 2);
  for (const auto& queue : q.members) key.push_back(queue.front().node);
  // The operation and root as the first member saw them (all members name the same).
  key.push_back(q.members[0].front().op);
  key.push_back(q.members[0].front().root);
  instances_[key] += n;
  for (auto& queue : q.members) {
    if ((queue.front().count -= n) == 0) queue.pop_front();
    if (queue.empty()) --q.nonEmpty;
  }
}

void CollectiveMatcher::addEdges(ActivityGraph& graph, const std::vector<NodeId>& nodes, uint8_t op,
                                 uint64_t root, uint64_t count) {
  const Flow flow = flowOf(op);
  const bool rootKnown = root < nodes.size();
  for (size_t from = 0; from < nodes.size(); ++from) {
    for (size_t to = 0; to < nodes.size(); ++to) {
      if (from == to) continue;
      const bool joined = flow == Flow::AllToAll ||
                          (flow == Flow::OneToAll && rootKnown && from == root) ||
                          (flow == Flow::AllToOne && rootKnown && to == root);
      if (joined) graph.edge(nodes[from], nodes[to], EdgeKind::Collective).count += count;
    }
  }
}

void CollectiveMatcher::finish(ActivityGraph& graph) {
  for (const auto& [key, count] : instances_) {
    const std::vector<NodeId> nodes(key.begin(), key.end() - 2);
    addEdges(graph, nodes, static_cast<uint8_t>(key[key.size() - 2]), key.back(), count);
  }
  graph.unmatched.collectives += unknownComm_;
  for (const auto& [comm, q] : comms_)
    for (const auto& queue : q.members)
      for (const Run& r : queue) graph.unmatched.collectives += r.count;
}

size_t CollectiveMatcher::runs() const {
  size_t n = 0;
  for (const auto& [comm, q] : comms_)
    for (const auto& queue : q.members) n += queue.size();
  return n;
}

}  // namespace mtf::tag
