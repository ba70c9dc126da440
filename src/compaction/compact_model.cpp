#include "compaction/compact_model.hpp"

#include <unordered_set>

#include "compaction/event_split.hpp"

namespace mtf::compaction {

bool isStructuralField(EventKind kind, size_t index) {
  const KindSchema& schema = schemaOf(kind);
  if (index >= schema.fields.size()) return false;
  const FieldSpec& f = schema.fields[index];
  if (kind == EventKind::Generic && f.name == "type") return true;  // Paraver event type
  switch (f.type) {
    case FieldType::Ref:
    case FieldType::Rank:
    case FieldType::U8:
      return true;
    case FieldType::U32:
      // Counters that change on every occurrence would defeat the structure.
      return f.name != "order" && f.name != "generation" && f.name != "unwind";
    default:
      return false;
  }
}

const LocationModel* CompactModel::findLocation(LocationId id) const {
  for (const LocationModel& l : locations)
    if (l.location == id) return &l;
  return nullptr;
}

LocationModel* CompactModel::findLocation(LocationId id) {
  for (LocationModel& l : locations)
    if (l.location == id) return &l;
  return nullptr;
}

namespace {

// Call-tree nodes one expansion of each DAG node stands for (memoised; children have
// smaller ids than their parents, so one pass in id order suffices).
std::vector<uint64_t> treeNodeCounts(const CompactModel& m) {
  std::vector<uint64_t> counts(m.nodes.size(), 0);
  for (size_t id = 0; id < m.nodes.size(); ++id) {
    const Node& n = m.nodes[id];
    uint64_t c = n.kind == NodeKind::Sequence ? 0 : 1;
    for (const Edge& e : n.edges) c += (e.child < id ? counts[e.child] : 0) * e.repetitions;
    counts[id] = c;
  }
  return counts;
}

// Adds the DAG nodes reachable from `root` not yet in `seen` to `f`.
void addReachable(const CompactModel& m, NodeId root, std::vector<bool>& seen,
                  CompactionFigures& f) {
  std::vector<NodeId> todo{root};
  while (!todo.empty()) {
    const NodeId id = todo.back();
    todo.pop_back();
    if (id >= m.nodes.size() || seen[id]) continue;
    seen[id] = true;
    const Node& n = m.nodes[id];
    f.dagNodes += 1;
    f.dagEdges += n.edges.size();
    f.messagesAfter += n.kind == NodeKind::PointToPoint ? 1 : 0;
    for (const Edge& e : n.edges) todo.push_back(e.child);
  }
}

// Point-to-point events under each DAG node (memoised like treeNodeCounts).
std::vector<uint64_t> messageCounts(const CompactModel& m) {
  std::vector<uint64_t> counts(m.nodes.size(), 0);
  for (size_t id = 0; id < m.nodes.size(); ++id) {
    const Node& n = m.nodes[id];
    uint64_t c = n.kind == NodeKind::PointToPoint ? 1 : 0;
    for (const Edge& e : n.edges) c += (e.child < id ? counts[e.child] : 0) * e.repetitions;
    counts[id] = c;
  }
  return counts;
}

void addTreeFigures(const CompactModel& m, const LocationModel& l,
                    const std::vector<uint64_t>& tree, const std::vector<uint64_t>& messages,
                    CompactionFigures& f) {
  if (l.root >= m.nodes.size()) return;
  f.events += l.eventCount;
  // The location itself is the tree's root node; every other node hangs by one edge.
  f.treeNodes += tree[l.root] + 1;
  f.treeEdges += tree[l.root];
  f.messagesBefore += messages[l.root];
}

}  // namespace

CompactionFigures CompactModel::figures(size_t locationIndex) const {
  CompactionFigures f;
  const LocationModel& l = locations.at(locationIndex);
  addTreeFigures(*this, l, treeNodeCounts(*this), messageCounts(*this), f);
  std::vector<bool> seen(nodes.size(), false);
  addReachable(*this, l.root, seen, f);
  return f;
}

CompactionFigures CompactModel::totalFigures() const {
  CompactionFigures f;
  const std::vector<uint64_t> tree = treeNodeCounts(*this);
  const std::vector<uint64_t> messages = messageCounts(*this);
  std::vector<bool> seen(nodes.size(), false);
  for (const LocationModel& l : locations) {
    addTreeFigures(*this, l, tree, messages, f);
    addReachable(*this, l.root, seen, f);
  }
  return f;
}

namespace {

std::string nodeProblem(const CompactModel& m, size_t id) {
  const Node& n = m.nodes[id];
  const std::string where = "DAG node " + std::to_string(id) + ": ";
  const bool isLeaf = n.kind != NodeKind::Call && n.kind != NodeKind::Sequence;
  if (static_cast<uint8_t>(n.kind) > static_cast<uint8_t>(NodeKind::Sequence))
    return where + "unknown node kind";
  if ((n.kind == NodeKind::Sequence) != (n.sig == kNoSig))
    return where + "signature missing or extra";
  if (n.sig != kNoSig && n.sig >= m.signatures.size()) return where + "signature out of range";
  if (n.leaveSig != kNoSig && (n.kind != NodeKind::Call || n.leaveSig >= m.signatures.size()))
    return where + "leave signature out of range";
  if (isLeaf && !n.edges.empty()) return where + "a leaf with children";
  uint64_t events = n.kind == NodeKind::Call ? 1 + (n.leaveSig != kNoSig ? 1 : 0) : isLeaf;
  for (const Edge& e : n.edges) {
    if (e.child >= id) return where + "child " + std::to_string(e.child) + " does not precede it";
    if (e.repetitions == 0) return where + "edge with zero repetitions";
    const uint64_t childEvents = m.nodes[e.child].eventCount;
    if (childEvents != 0 && e.repetitions > (~uint64_t{0} - events) / childEvents)
      return where + "event count overflows";
    events += childEvents * e.repetitions;
  }
  if (events != n.eventCount)
    return where + "event count " + std::to_string(n.eventCount) + " should be " +
           std::to_string(events);
  return {};
}

std::string locationProblem(const CompactModel& m, const LocationModel& l) {
  const std::string where = "location " + std::to_string(l.location) + ": ";
  if (l.root >= m.nodes.size()) return where + "root node out of range";
  if (m.nodes[l.root].eventCount != l.eventCount)
    return where + "event count " + std::to_string(l.eventCount) + " differs from its DAG's " +
           std::to_string(m.nodes[l.root].eventCount);
  uint64_t next = 0;
  for (const ColumnChunk& c : l.columns) {
    if (c.firstEvent != next || c.eventCount == 0 || c.eventCount > l.eventCount - next)
      return where + "column chunks do not cover events " + std::to_string(next) + ".." +
             std::to_string(l.eventCount) + " in order";
    next += c.eventCount;
  }
  if (next != l.eventCount)
    return where + "columns hold " + std::to_string(next) + " events, the DAG " +
           std::to_string(l.eventCount);
  return {};
}

}  // namespace

std::vector<std::string> CompactModel::check() const {
  std::vector<std::string> problems;
  for (size_t i = 0; i < signatures.size(); ++i)
    if (!signatureWellFormed(signatures[i]))
      problems.push_back("signature " + std::to_string(i) + ": fields do not match its kind");
  for (size_t id = 0; id < nodes.size(); ++id) {
    std::string p = nodeProblem(*this, id);
    if (!p.empty()) problems.push_back(std::move(p));
  }
  std::unordered_set<LocationId> seen;
  for (const LocationModel& l : locations) {
    if (!seen.insert(l.location).second)
      problems.push_back("location " + std::to_string(l.location) + " appears twice");
    std::string p = locationProblem(*this, l);
    if (!p.empty()) problems.push_back(std::move(p));
  }
  return problems;
}

}  // namespace mtf::compaction
