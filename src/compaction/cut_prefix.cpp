#include "compaction/cut_prefix.hpp"

#include <algorithm>

namespace mtf::compaction {

namespace {

// Open calls beyond this are not kept (a node that enters without leaving, repeated):
// nothing real nests so deep, and the effect of a repeated node stays small.
constexpr size_t kMaxOpenCalls = 1 << 16;

void applyOnce(CutEffect& run, const CutEffect& next) {
  const uint64_t matched = std::min<uint64_t>(next.pops, run.pushes.size());
  run.pops += next.pops - matched;
  run.pushes.resize(run.pushes.size() - matched);
  const size_t room = kMaxOpenCalls - std::min(kMaxOpenCalls, run.pushes.size());
  run.pushes.insert(run.pushes.end(), next.pushes.begin(),
                    next.pushes.begin() + std::min(room, next.pushes.size()));
  if (next.collective >= 0) run.collective = next.collective;
}

}  // namespace

void CutEffect::then(const CutEffect& next, uint64_t times) {
  for (const auto& [sig, n] : next.messages) messages[sig] += n * times;
  // The calls: a balanced run (the usual repeated body) changes nothing, however often.
  if (next.pops == 0 && next.pushes.empty()) {
    if (times > 0 && next.collective >= 0) collective = next.collective;
    return;
  }
  for (uint64_t i = 0; i < times; ++i) {
    applyOnce(*this, next);
    if (next.pops == 0 && pushes.size() >= kMaxOpenCalls) break;  // cannot change more
  }
}

CutEffect CutPrefix::eventEffect(SigId sig) const {
  CutEffect e;
  const EventKind kind = model_.signatures[sig].kind;
  if (kind == EventKind::Enter) e.pushes.push_back(sig);
  if (kind == EventKind::Leave) e.pops = 1;
  if (kind == EventKind::MpiCollectiveBegin) e.collective = 1;
  if (kind == EventKind::MpiCollectiveEnd) e.collective = 0;
  if (isMpiPointToPoint(kind)) e.messages[sig] = 1;
  return e;
}

const CutEffect& CutPrefix::effectOf(NodeId id) {
  if (memo_[id]) return *memo_[id];
  const Node& n = model_.nodes[id];
  CutEffect e;
  if (n.kind == NodeKind::Call) e = eventEffect(n.sig);
  if (n.kind != NodeKind::Call && n.kind != NodeKind::Sequence) e = eventEffect(n.sig);
  for (const Edge& edge : n.edges) {
    const CutEffect& child = effectOf(edge.child);  // children come before their parents
    e.then(child, edge.repetitions);
  }
  if (n.kind == NodeKind::Call && n.leaveSig != kNoSig) e.then(eventEffect(n.leaveSig));
  memo_[id] = std::move(e);
  return *memo_[id];
}

void CutPrefix::event(SigId sig) {
  total_.then(eventEffect(sig));
}

void CutPrefix::subtree(NodeId node, uint64_t times) {
  total_.then(effectOf(node), times);
}

}  // namespace mtf::compaction
