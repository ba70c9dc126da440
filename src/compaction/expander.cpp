#include "compaction/expander.hpp"

#include <algorithm>

#include "compaction/compactor.hpp"

namespace mtf::compaction {

namespace {
inline bool isLeaf(const Node& n) {
  return n.kind != NodeKind::Call && n.kind != NodeKind::Sequence;
}
}  // namespace

FlatExpansions::FlatExpansions(const CompactModel& model, size_t budget)
    : begin_(model.nodes.size(), kNotKept) {
  budget = std::min<size_t>(budget, kNotKept - 1);
  // Children precede their parents (CompactModel::check): a parent finds its children
  // already flattened.
  for (NodeId id = 0; id < model.nodes.size(); ++id) {
    const Node& n = model.nodes[id];
    if (isLeaf(n) || n.eventCount > kMaxNodeEvents || n.eventCount > budget - steps_.size())
      continue;
    const size_t before = steps_.size();
    if (!flatten(model, id)) steps_.resize(before);
  }
}

// Appends the steps of node `id` (not a leaf, small enough); false if a child that is
// not a leaf has no steps kept (the node is then not kept either).
bool FlatExpansions::flatten(const CompactModel& model, NodeId id) {
  const Node& n = model.nodes[id];
  begin_[id] = static_cast<uint32_t>(steps_.size());
  if (n.kind == NodeKind::Call) steps_.push_back({n.sig, enterContext(n.sig)});
  for (const Edge& e : n.edges) {
    const Node& child = model.nodes[e.child];
    if (isLeaf(child)) {
      steps_.insert(steps_.end(), e.repetitions, ExpansionStep{child.sig, nodeContext(e.child)});
      continue;
    }
    if (begin_[e.child] == kNotKept) {
      begin_[id] = kNotKept;
      return false;
    }
    if (child.eventCount == 0) continue;  // however often it repeats, nothing
    // By index: the child's steps lie in the same vector, which may move as it grows.
    const size_t from = begin_[e.child], each = child.eventCount;
    for (uint64_t r = 0; r < e.repetitions; ++r) {
      const size_t at = steps_.size();
      steps_.resize(at + each);
      std::copy_n(steps_.begin() + from, each, steps_.begin() + at);
    }
  }
  if (n.kind == NodeKind::Call && n.leaveSig != kNoSig)
    steps_.push_back({n.leaveSig, nodeContext(id)});
  return true;
}

Expander::Expander(const CompactModel& model, NodeId root, const FlatExpansions* flat)
    : model_(model), flat_(flat) {
  if (root < model.nodes.size()) stack_.push_back(Frame{root});
}

size_t Expander::copyRepetitions(Frame& f, const Edge& e, ExpansionStep* out, size_t n,
                                 size_t max) {
  const Node& child = model_.nodes[e.child];
  const uint64_t left = e.repetitions - f.rep;
  if (isLeaf(child)) {
    const size_t copies = static_cast<size_t>(std::min<uint64_t>(left, max - n));
    std::fill_n(out + n, copies, ExpansionStep{child.sig, nodeContext(e.child)});
    f.rep += copies;
    return n + copies;
  }
  const ExpansionStep* steps = flat_ ? flat_->of(e.child) : nullptr;
  if (!steps) return n;
  const uint64_t each = child.eventCount;
  if (each == 0) {  // nothing, however often
    f.rep = e.repetitions;
    return n;
  }
  const uint64_t copies = std::min<uint64_t>(left, (max - n) / each);
  for (uint64_t r = 0; r < copies; ++r, n += each) std::copy_n(steps, each, out + n);
  f.rep += copies;
  return n;
}

size_t Expander::fill(ExpansionStep* out, size_t max) {
  size_t n = 0;
  while (n < max && !stack_.empty()) {
    Frame& f = stack_.back();
    const NodeId id = f.node;
    const Node& node = model_.nodes[id];
    if (f.phase == 0) {
      f.phase = 1;
      if (node.kind == NodeKind::Call) {
        out[n++] = {node.sig, enterContext(node.sig)};
        continue;
      }
      if (isLeaf(node)) {
        stack_.pop_back();
        out[n++] = {node.sig, nodeContext(id)};
        continue;
      }
    }
    if (f.phase == 1) {
      if (f.edge < node.edges.size()) {
        const Edge& e = node.edges[f.edge];
        if (f.rep == e.repetitions) {
          ++f.edge;
          f.rep = 0;
          continue;
        }
        const size_t before = n;
        n = copyRepetitions(f, e, out, n, max);
        if (n > before || f.rep == e.repetitions) continue;
        ++f.rep;  // one repetition that does not fit whole: walked
        stack_.push_back(Frame{e.child});
        continue;
      }
      f.phase = 2;
    }
    stack_.pop_back();
    if (node.kind == NodeKind::Call && node.leaveSig != kNoSig)
      out[n++] = {node.leaveSig, nodeContext(id)};
  }
  return n;
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
