// mtf public API: the results of the analyses (what `mtf info`, `mtf stats`, `mtf loops`
// and `mtf patterns` print), as plain values.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mtf/definitions.hpp"

namespace mtf::api {

// `mtf info`: what the trace holds, counted while it streams past.
struct Info {
  std::string format, formatVersion, creator;
  uint64_t locations = 0;
  uint64_t events = 0;
  std::map<std::string, uint64_t> eventsByKind;  // kind name -> events (kinds present only)
  uint64_t resolution = 0;                       // ticks per second
  Tick firstTimestamp = 0, lastTimestamp = 0;
  std::map<std::string, uint64_t> definitions;   // definition records by kind
  std::map<std::string, uint64_t> inputRecords;  // the input's own records (Paraver, TAU)
  std::map<std::string, uint64_t> unmodelled;    // what the model does not represent
  // Enter/leave nesting.
  uint64_t maxDepth = 0, callsNeverLeft = 0, leavesWithoutEnter = 0, leavesMismatched = 0,
           unbalancedLocations = 0;
};

// `mtf stats`: the compaction figures (MTF paper, Table 1) of one location or the trace.
struct CompactionFigures {
  uint64_t events = 0;
  uint64_t treeNodes = 0, treeEdges = 0;  // the uncompacted call trees
  uint64_t dagNodes = 0, dagEdges = 0;    // the ordered DAG
  uint64_t messagesBefore = 0;            // point-to-point events
  uint64_t messagesAfter = 0;             // point-to-point DAG nodes
  double compactionRate = 0;              // percent, over nodes + edges
};

struct Stats {
  CompactionFigures total;
  std::vector<std::pair<LocationId, CompactionFigures>> locations;
  bool sizesFromFile = false;  // true on an .mtf; else the bytes an archive would take
  uint64_t structureBytes = 0, valueBytes = 0, definitionBytes = 0, indexBytes = 0, fileBytes = 0;
};

// The compacted structure (the MTF paper's ordered DAG): every location's call tree with
// contiguous repeats collapsed and identical subtrees of all locations stored once.
struct DagEdge {
  uint32_t child = 0;        // index into Dag::nodes
  uint64_t repetitions = 1;  // the child's subtree occurs this many times in a row
  std::string type;          // "regular", "sequence" (child is a Sequence), "recursive"
};

struct DagNode {
  // "call" (Enter, children, Leave), "point_to_point", "collective", "other" (leaves), or
  // "sequence" (no event of its own: a repeated group of siblings, or a location's root).
  std::string kind;
  std::string label;           // a call: its region's name; a leaf: its event kind; else ""
  uint64_t eventCount = 0;     // events one expansion of the node produces
  std::vector<DagEdge> edges;  // ordered children
};

struct Dag {
  std::vector<DagNode> nodes;                          // children before parents
  std::vector<std::pair<LocationId, uint32_t>> roots;  // each location's root node
};

// `mtf loops`: one element of a location's loop program: an event or a loop.
struct LoopElement {
  bool loop = false;
  uint64_t iterations = 0;        // a loop: how many times its body repeats
  std::vector<LoopElement> body;  // a loop: its body
  std::string event;              // an event: as `mtf loops` prints it ("0 send 1 tag1 3240B")
};

struct LocationLoops {
  LocationId location = 0;
  std::string name;
  int64_t rank = -1;      // MPI world rank, -1 if none
  uint64_t events = 0;    // events the loop program stands for
  uint64_t elements = 0;  // elements of the printed program
  std::vector<LoopElement> program;
  std::string text;  // the loop program exactly as `mtf loops` prints it
};

// `mtf patterns`: a known communication pattern the trace follows.
struct KnownPattern {
  std::string name;                               // "ring", "wavefront", "butterfly", ...
  std::map<std::string, std::string> parameters;  // e.g. grid=4x4
  uint64_t occurrences = 0;
  uint64_t eventsCovered = 0;
  std::vector<int64_t> ranks;
  Tick firstTime = 0, lastTime = 0;
};

struct Patterns {
  uint64_t processes = 0;
  std::vector<KnownPattern> known;
  uint64_t communicationPatterns = 0;  // repeating inter-process patterns found
  std::string json;                    // the whole report as `mtf patterns --json --top 10`
};

}  // namespace mtf::api
