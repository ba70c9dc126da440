// Trace::dag: the compacted structure (compaction/compact_model.hpp) as public values.
#include "api/api_impl.hpp"
#include "compaction/compactor.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::api {
namespace {

std::string nodeKindName(compaction::NodeKind kind) {
  switch (kind) {
    case compaction::NodeKind::Call:
      return "call";
    case compaction::NodeKind::PointToPoint:
      return "point_to_point";
    case compaction::NodeKind::Collective:
      return "collective";
    case compaction::NodeKind::Sequence:
      return "sequence";
    default:
      return "other";
  }
}

std::string edgeTypeName(compaction::EdgeType type) {
  switch (type) {
    case compaction::EdgeType::Sequence:
      return "sequence";
    case compaction::EdgeType::Recursive:
      return "recursive";
    default:
      return "regular";
  }
}

std::string labelOf(const compaction::CompactModel& m, const compaction::Node& n) {
  if (n.sig == compaction::kNoSig) return "";
  const compaction::Signature& s = m.signature(n.sig);
  if (n.kind == compaction::NodeKind::Call && !s.fields.empty())
    return std::string(m.definitions.regionName(static_cast<Ref>(s.fields[0])));
  return std::string(nameOf(s.kind));
}

Dag publicDag(const compaction::CompactModel& m) {
  Dag dag;
  dag.nodes.reserve(m.nodes.size());
  for (const compaction::Node& n : m.nodes) {
    DagNode node{nodeKindName(n.kind), labelOf(m, n), n.eventCount, {}};
    for (const compaction::Edge& e : n.edges)
      node.edges.push_back({e.child, e.repetitions, edgeTypeName(e.type)});
    dag.nodes.push_back(std::move(node));
  }
  for (const compaction::LocationModel& l : m.locations) dag.roots.emplace_back(l.location, l.root);
  return dag;
}

}  // namespace

Dag Trace::dag() {
  return guarded([&] {
    if (impl_->format == "mtf") return publicDag(*mtfbin::ArchiveReader(impl_->path).model());
    compaction::Compactor compactor({}, [](LocationId, compaction::ColumnChunk&&) {});
    impl_->openSource()->read(compactor);
    return publicDag(compactor.model());
  });
}

}  // namespace mtf::api
