#include "compaction/dag_builder.hpp"

#include <algorithm>
#include <stdexcept>

namespace mtf::compaction {

namespace {

inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

uint64_t hashOf(const Signature& s) {
  uint64_t h = mix(0x51, static_cast<uint64_t>(s.kind));
  for (uint64_t f : s.fields) h = mix(h, f);
  h = mix(h, s.attributes.size());
  for (const SignatureAttribute& a : s.attributes)
    h = mix(h, (uint64_t{a.attribute} << 8) | a.type);
  return h;
}

uint64_t hashOfNode(NodeKind kind, SigId sig, SigId leaveSig, const std::vector<Edge>& edges) {
  uint64_t h = mix(static_cast<uint64_t>(kind), (uint64_t{sig} << 32) | leaveSig);
  for (const Edge& e : edges)
    h = mix(mix(h, e.child), e.repetitions * 4 + static_cast<uint64_t>(e.type));
  return h;
}

NodeKind leafKindOf(EventKind k) {
  if (isMpiPointToPoint(k)) return NodeKind::PointToPoint;
  switch (k) {
    case EventKind::MpiCollectiveBegin:
    case EventKind::MpiCollectiveEnd:
    case EventKind::NonBlockingCollectiveRequest:
    case EventKind::NonBlockingCollectiveComplete:
      return NodeKind::Collective;
    default:
      return NodeKind::Other;
  }
}

}  // namespace

void DagBuilder::HashIndex::place(uint32_t id) {
  size_t i = hashes_[id] & mask_;
  while (slots_[i] != kNone) i = (i + 1) & mask_;
  slots_[i] = id;
}

void DagBuilder::HashIndex::add(uint64_t h) {
  hashes_.push_back(h);
  if (hashes_.size() * 2 > slots_.size()) {
    slots_.assign(slots_.empty() ? 64 : slots_.size() * 2, kNone);
    mask_ = slots_.size() - 1;
    for (uint32_t id = 0; id < hashes_.size(); ++id) place(id);
  } else {
    place(static_cast<uint32_t>(hashes_.size() - 1));
  }
}

SigId DagBuilder::intern(const Signature& sig) {
  const uint64_t h = hashOf(sig);
  const SigId found = sigIndex_.find(h, [&](uint32_t id) { return model_.signatures[id] == sig; });
  if (found != HashIndex::kNone) return found;
  if (model_.signatures.size() >= kNoSig - 1) throw std::length_error("too many signatures");
  model_.signatures.push_back(sig);
  sigIndex_.add(h);
  return static_cast<SigId>(model_.signatures.size() - 1);
}

NodeId DagBuilder::internNode(NodeKind kind, SigId sig, SigId leaveSig,
                              const std::vector<Edge>& edges) {
  const uint64_t h = hashOfNode(kind, sig, leaveSig, edges);
  const NodeId found = nodeIndex_.find(h, [&](uint32_t id) {
    const Node& n = model_.nodes[id];
    return n.kind == kind && n.sig == sig && n.leaveSig == leaveSig && n.edges == edges;
  });
  if (found != HashIndex::kNone) return found;
  if (model_.nodes.size() >= kNoNode - 1) throw std::length_error("too many DAG nodes");
  Node& n = model_.nodes.emplace_back();
  n.kind = kind;
  n.sig = sig;
  n.leaveSig = leaveSig;
  n.edges = edges;
  n.eventCount = eventCountOf(edges);
  if (kind == NodeKind::Call) n.eventCount += 1 + (leaveSig != kNoSig ? 1 : 0);
  if (kind != NodeKind::Call && kind != NodeKind::Sequence) n.eventCount = 1;
  nodeIndex_.add(h);
  callRegion_.push_back(kind == NodeKind::Call ? regionOf(model_.signatures[sig]) : kUndefinedRef);
  return static_cast<NodeId>(model_.nodes.size() - 1);
}

uint64_t DagBuilder::eventCountOf(const std::vector<Edge>& edges) const {
  uint64_t n = 0;
  for (const Edge& e : edges) n += model_.nodes[e.child].eventCount * e.repetitions;
  return n;
}

NodeId DagBuilder::newLeaf(SigId sig) {
  static const std::vector<Edge> kNoEdges;
  const NodeId id = internNode(leafKindOf(model_.signatures[sig].kind), sig, kNoSig, kNoEdges);
  if (sig >= leafOfSig_.size()) leafOfSig_.resize(size_t{sig} + 1, kNoNode);
  leafOfSig_[sig] = id;
  return id;
}

NodeId DagBuilder::newCall(SigId enter, SigId leave, const std::vector<Edge>& children) {
  const NodeId id = internNode(NodeKind::Call, enter, leave, children);
  if (enter >= lastCallsOf_.size()) lastCallsOf_.resize(size_t{enter} + 1);
  lastCallsOf_[enter].add(id);
  return id;
}

NodeId DagBuilder::sequence(const std::vector<Edge>& children) {
  return internNode(NodeKind::Sequence, kNoSig, kNoSig, children);
}

bool DagBuilder::foldTail(std::vector<Edge>& list) {
  const size_t size = list.size();
  if (size < 3) return false;
  // By pointer and reference: nothing is written to the list until a fold is found.
  const Edge* const end = list.data() + size;
  const Edge& last = end[-1];
  const size_t maxPeriod = std::min(kMaxPeriod, size - 1);
  for (size_t p = 2; p <= maxPeriod; ++p) {
    const Edge* const tail = end - p;  // the last p edges
    // The edge before them: a Sequence whose body may be the last p edges, or the start
    // of p edges that the last p may repeat (then it equals the last edge).
    const Edge& before = tail[-1];
    if (before.type == EdgeType::Sequence) {
      const std::vector<Edge>& body = model_.nodes[before.child].edges;
      if (body.size() == p && body.back() == last && std::equal(body.begin(), body.end(), tail)) {
        list[size - p - 1].repetitions += 1;
        list.resize(size - p);
        return true;
      }
    }
    if (before.child == last.child && 2 * p <= size && before == last &&
        std::equal(tail - p, tail, tail)) {
      foldRepeat(list, p);
      return true;
    }
  }
  return false;
}

// The last 2p edges of `list` are p edges twice: they become one Sequence edge.
void DagBuilder::foldRepeat(std::vector<Edge>& list, size_t p) {
  body_.assign(list.end() - static_cast<ptrdiff_t>(p), list.end());
  list.resize(list.size() - 2 * p);
  const NodeId seq = sequence(body_);
  if (!list.empty() && list.back().child == seq) {
    list.back().repetitions += 2;
  } else {
    list.push_back(Edge{seq, 2, EdgeType::Sequence});
  }
}

}  // namespace mtf::compaction
