#include "converters/mtf/binary/node_columns.hpp"

#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;
using compaction::CodingError;
using compaction::kNoSig;
using compaction::Node;
using compaction::NodeKind;
using compaction::putVarint;

namespace {

// A leave signature relative to its call's enter signature: 0 for none, else one more
// than the zigzag difference.
uint64_t leaveCode(const Node& n) {
  if (n.leaveSig == kNoSig) return 0;
  const uint64_t enter = n.sig == kNoSig ? 0 : n.sig;
  return compaction::zigzag(static_cast<int64_t>(uint64_t{n.leaveSig} - enter)) + 1;
}

uint32_t sigOf(ByteReader& r) {
  const uint64_t v = r.count(0xFFFFFFFFu, "signature");
  return v == 0 ? kNoSig : static_cast<uint32_t>(v - 1);
}

// What the node's expansion yields, from its children (wrapping: an overflow is
// refused by the model's validation, which sums again with checks).
uint64_t eventsOf(const std::vector<Node>& nodes, size_t id) {
  const Node& n = nodes[id];
  uint64_t events = n.kind == NodeKind::Call       ? 1 + (n.leaveSig != kNoSig ? 1 : 0)
                    : n.kind == NodeKind::Sequence ? 0
                                                   : 1;
  for (const compaction::Edge& e : n.edges)
    if (e.child < id) events += nodes[e.child].eventCount * e.repetitions;
  return events;
}

}  // namespace

std::vector<uint8_t> encodeNodeColumns(const compaction::CompactModel& m) {
  std::vector<uint8_t> out, sigs, leaves, edgeCounts, children, repetitions, types;
  putVarint(out, m.nodes.size());
  for (const Node& n : m.nodes) {
    out.push_back(static_cast<uint8_t>(n.kind));
    putVarint(sigs, n.sig == kNoSig ? 0 : uint64_t{n.sig} + 1);
    if (n.kind == NodeKind::Call) putVarint(leaves, leaveCode(n));
    putVarint(edgeCounts, n.edges.size());
    for (const compaction::Edge& e : n.edges) {
      putVarint(children, e.child);
      putVarint(repetitions, e.repetitions - 1);
      types.push_back(static_cast<uint8_t>(e.type));
    }
  }
  for (const auto* column : {&sigs, &leaves, &edgeCounts, &children, &repetitions, &types})
    out.insert(out.end(), column->begin(), column->end());
  return out;
}

void decodeNodeColumns(const std::vector<uint8_t>& raw, compaction::CompactModel& m) {
  ByteReader r(raw);
  std::vector<Node>& nodes = m.nodes;
  nodes.assign(r.count(r.remaining(), "node count"), Node{});
  for (Node& n : nodes) {
    const size_t at = r.position();
    const uint8_t kind = r.byte();
    if (kind > static_cast<uint8_t>(NodeKind::Sequence)) throw CodingError{at, "unknown node kind"};
    n.kind = static_cast<NodeKind>(kind);
  }
  for (Node& n : nodes) n.sig = sigOf(r);
  for (Node& n : nodes) {
    if (n.kind != NodeKind::Call) continue;
    const size_t at = r.position();
    const uint64_t code = r.varint();
    if (code == 0) continue;
    const uint64_t enter = n.sig == kNoSig ? 0 : n.sig;
    const uint64_t leave = enter + static_cast<uint64_t>(compaction::unzigzag(code - 1));
    if (leave >= kNoSig) throw CodingError{at, "leave signature out of range"};
    n.leaveSig = static_cast<uint32_t>(leave);
  }
  uint64_t promised = 0;  // edges announced; each takes at least 3 bytes
  for (Node& n : nodes) {
    const uint64_t count =
        r.count((r.remaining() - std::min(r.remaining(), promised)) / 3, "edge count");
    n.edges.resize(count);
    promised += 3 * count;
  }
  for (Node& n : nodes)
    for (compaction::Edge& e : n.edges)
      e.child = static_cast<compaction::NodeId>(r.count(0xFFFFFFFEu, "child id"));
  for (Node& n : nodes)
    for (compaction::Edge& e : n.edges) e.repetitions = r.varint() + 1;
  for (Node& n : nodes)
    for (compaction::Edge& e : n.edges) {
      const size_t at = r.position();
      const uint8_t type = r.byte();
      if (type > 2) throw CodingError{at, "unknown edge type"};
      e.type = static_cast<compaction::EdgeType>(type);
    }
  if (!r.atEnd()) throw CodingError{r.position(), "unexpected bytes after the last node"};
  for (size_t id = 0; id < nodes.size(); ++id) nodes[id].eventCount = eventsOf(nodes, id);
}

}  // namespace mtf::mtfbin
