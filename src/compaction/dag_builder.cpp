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

}  // namespace mtf::compaction
