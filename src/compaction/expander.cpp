#include "compaction/expander.hpp"

#include "compaction/compactor.hpp"

namespace mtf::compaction {

namespace {
inline bool isLeaf(const Node& n) {
  return n.kind != NodeKind::Call && n.kind != NodeKind::Sequence;
}
}  // namespace

Expander::Expander(const CompactModel& model, NodeId root) : model_(model) {
  if (root < model.nodes.size()) stack_.push_back(Frame{root});
}

bool Expander::next(ExpansionStep& step) {
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    const NodeId id = f.node;
    const Node& n = model_.nodes[id];
    if (f.phase == 0) {
      f.phase = 1;
      if (n.kind == NodeKind::Call) {
        step = {n.sig, enterContext(n.sig)};
        return true;
      }
      if (isLeaf(n)) {
        stack_.pop_back();
        step = {n.sig, nodeContext(id)};
        return true;
      }
    }
    if (f.phase == 1) {
      if (f.edge < n.edges.size()) {
        const Edge& e = n.edges[f.edge];
        if (f.rep == e.repetitions) {
          ++f.edge;
          f.rep = 0;
          continue;
        }
        ++f.rep;
        const Node& child = model_.nodes[e.child];
        if (isLeaf(child)) {  // fast path: no frame for a leaf
          step = {child.sig, nodeContext(e.child)};
          return true;
        }
        stack_.push_back(Frame{e.child});
        continue;
      }
      f.phase = 2;
    }
    stack_.pop_back();
    if (n.kind == NodeKind::Call && n.leaveSig != kNoSig) {
      step = {n.leaveSig, nodeContext(id)};
      return true;
    }
  }
  return false;
}

void Expander::skip(uint64_t events, SkipVisitor* visitor) {
  while (events > 0 && !stack_.empty()) {
    Frame& f = stack_.back();
    const Node& n = model_.nodes[f.node];
    if (f.phase == 0) {
      f.phase = 1;
      if (n.kind == NodeKind::Call || isLeaf(n)) {
        --events;
        if (visitor) visitor->event(n.sig);
        if (isLeaf(n)) stack_.pop_back();
      }
      continue;
    }
    if (f.phase == 1 && f.edge < n.edges.size()) {
      const Edge& e = n.edges[f.edge];
      const uint64_t each = model_.nodes[e.child].eventCount;
      const uint64_t left = e.repetitions - f.rep;
      if (each == 0 || left <= events / each) {  // the whole rest of this edge
        events -= each * left;
        if (visitor && left > 0) visitor->subtree(e.child, left);
        ++f.edge;
        f.rep = 0;
        continue;
      }
      const uint64_t whole = events / each;
      f.rep += whole;
      events -= whole * each;
      if (visitor && whole > 0) visitor->subtree(e.child, whole);
      if (events > 0) {
        ++f.rep;
        stack_.push_back(Frame{e.child});
      }
      continue;
    }
    f.phase = 2;
    const bool hasLeave = n.kind == NodeKind::Call && n.leaveSig != kNoSig;
    const SigId leave = n.leaveSig;
    stack_.pop_back();
    if (hasLeave) {
      --events;
      if (visitor) visitor->event(leave);
    }
  }
}

}  // namespace mtf::compaction
