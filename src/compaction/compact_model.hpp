// The compacted MTF model (paper 002, "MTF metamodel"): every location's call tree,
// contiguous repeats collapsed, identical subtrees of all locations stored once, giving
// one ordered DAG; plus per-location value columns that hold everything the structure
// does not (timestamps, request ids, sizes, metric values, attribute values).
//
// Stages that use it:
//   - compaction/compactor.hpp   builds a CompactModel from an event stream (a TraceSink)
//   - compaction/decompactor.hpp expands a CompactModel back into the exact events
//   - the MTF binary and XML forms store and load it; NLR and pattern detection attach
//     their results as named annotation blobs.
//
// Terminology (paper's Table 1): a *tree node* is one event group of the uncompacted
// call tree (a call = Enter..Leave, or one leaf event); a *DAG node* is one Node here.
//
// STABILITY: other engineers build against this header. Additions only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/types.hpp"
#include "values/column_chunk.hpp"
#include "values/zstd_codec.hpp"

namespace mtf::compaction {

using NodeId = uint32_t;
using SigId = uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;
inline constexpr SigId kNoSig = 0xFFFFFFFFu;

enum class NodeKind : uint8_t {
  Call = 0,          // a routine call: Enter, ordered children, Leave (Leave may be missing)
  PointToPoint = 1,  // leaf: MpiSend / MpiIsend / MpiRecv / MpiIrecv
  Collective = 2,    // leaf: MpiCollectiveBegin/End, NonBlockingCollective*
  Other = 3,         // leaf: any other event (incl. a Leave that closes no open call)
  Sequence = 4       // no event of its own: an ordered list of children (a repeated loop
                     // body, or a location's root)
};

// Paper's Edge.type. Regular: a plain child (repetitions > 1 when one subtree repeats
// contiguously). Sequence: the child is a Sequence node (several siblings repeated
// together, e.g. a loop body of 3 calls). Recursive: the child is a call of the same
// region as its parent call.
enum class EdgeType : uint8_t { Regular = 0, Sequence = 1, Recursive = 2 };

struct Edge {
  NodeId child = kNoNode;
  uint64_t repetitions = 1;  // the child's subtree occurs this many times in a row
  EdgeType type = EdgeType::Regular;
  bool operator==(const Edge&) const = default;
};

// The structural part of one event: what the DAG keeps. Interned: equal signatures
// have one SigId for the whole trace.
struct SignatureAttribute {
  Ref attribute = kUndefinedRef;
  uint8_t type = 0;  // OTF2_Type; the value is in the columns
  bool operator==(const SignatureAttribute&) const = default;
};

struct Signature {
  EventKind kind = EventKind::Enter;
  // The event's structural fields only (see isStructuralField), in schema order.
  // A field of type Rank is stored relative to the location's own rank in that event's
  // communicator: zigzag(rank - ownRank), so SPMD ranks share subtrees. When the
  // location's own rank in the communicator is unknown it is stored as is.
  std::vector<uint64_t> fields;
  std::vector<SignatureAttribute> attributes;  // in event order
  // Field by field: a signature holds a few fields and is compared once per event
  // (the defaulted == compares the vectors through memcmp calls).
  bool operator==(const Signature& o) const {
    if (kind != o.kind || fields.size() != o.fields.size() ||
        attributes.size() != o.attributes.size())
      return false;
    for (size_t i = 0; i < fields.size(); ++i)
      if (fields[i] != o.fields[i]) return false;
    for (size_t i = 0; i < attributes.size(); ++i)
      if (!(attributes[i] == o.attributes[i])) return false;
    return true;
  }
};

// True if field `index` of `kind` is kept in the structure; false if its value goes
// into the columns. Refs, ranks, u8 enums and most u32 (tags, flags, counts) are
// structural; times, u64/i64/f64 values (lengths, requests, metric values), and the
// u32 counters that change every time (lock order, task generation, unwind distance)
// are values. Generic.type and State.state are structural.
bool isStructuralField(EventKind kind, size_t index);

struct Node {
  NodeKind kind = NodeKind::Other;
  SigId sig = kNoSig;       // Call: its Enter; leaves: the event; Sequence: kNoSig
  SigId leaveSig = kNoSig;  // Call: its Leave, kNoSig if the call never left (trace cut)
  std::vector<Edge> edges;  // Call and Sequence: ordered children; leaves: empty
  uint64_t eventCount = 0;  // events one expansion of this node produces
  bool operator==(const Node&) const = default;
};

// A named opaque blob attached by an analysis (e.g. "nlr.loops", "patterns").
// Stored as is in both MTF forms; the producer documents its content.
struct Annotation {
  std::string name;
  std::vector<uint8_t> data;
  std::string_view bytes() const {
    return {reinterpret_cast<const char*>(data.data()), data.size()};
  }
};

// The first annotation of `all` named `name`, or nullptr.
inline const Annotation* findAnnotation(const std::vector<Annotation>& all, std::string_view name) {
  for (const Annotation& a : all)
    if (a.name == name) return &a;
  return nullptr;
}

using values::ColumnChunk;  // values/column_chunk.hpp

struct LocationModel {
  LocationId location = 0;
  NodeId root = kNoNode;             // a Sequence node: the location's top-level items in order
  uint64_t eventCount = 0;           // events of the location (== nodes[root].eventCount)
  std::vector<ColumnChunk> columns;  // in event order, covering [0, eventCount)
  std::vector<Annotation> annotations;
};

// Figures of the paper's Table 1 for one location or the whole trace.
struct CompactionFigures {
  uint64_t events = 0;
  uint64_t treeNodes = 0;          // nodes of the uncompacted call tree (calls + leaf events)
  uint64_t treeEdges = 0;          // treeNodes minus one per root item list
  uint64_t dagNodes = 0;           // DAG nodes reachable (shared nodes counted once)
  uint64_t dagEdges = 0;           // edges of those nodes
  uint64_t messagesBefore = 0;     // point-to-point events in the trace
  uint64_t messagesAfter = 0;      // point-to-point DAG nodes
  double compactionRate() const {  // paper: (1 - B/A) * 100, over nodes + edges
    const double before = double(treeNodes + treeEdges);
    return before == 0 ? 0.0 : (1.0 - double(dagNodes + dagEdges) / before) * 100.0;
  }
};

class CompactModel {
 public:
  Definitions definitions;
  std::vector<Signature> signatures;     // indexed by SigId
  std::vector<Node> nodes;               // indexed by NodeId; children before parents
  std::vector<LocationModel> locations;  // in definition order of the locations seen
  std::vector<Annotation> annotations;   // trace-wide annotations
  // The dictionary some column chunks (coding 3) are compressed with, if the archive has
  // one (values/column_dictionary.hpp).
  std::shared_ptr<const values::ZstdDictionary> columnDictionary;

  const Node& node(NodeId id) const { return nodes.at(id); }
  const Signature& signature(SigId id) const { return signatures.at(id); }
  // The location model of `id`, or nullptr.
  const LocationModel* findLocation(LocationId id) const;
  LocationModel* findLocation(LocationId id);

  // Table 1 figures of one location (index into `locations`) and of the whole trace.
  CompactionFigures figures(size_t locationIndex) const;
  CompactionFigures totalFigures() const;

  // Checks internal consistency (edge targets exist and precede their parent, event
  // counts add up, signatures in range, columns cover each location's events exactly).
  // Returns the problems found, each as one sentence; empty if consistent.
  std::vector<std::string> check() const;
};

}  // namespace mtf::compaction
