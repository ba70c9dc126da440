// Writes a PTAG as GraphML (typed <key> declarations, valid against the GraphML 1.0
// schema; read by yEd, Gephi, networkx) or as Graphviz DOT, streaming node by node.
#pragma once

#include <ostream>

#include "tag/activity_graph.hpp"
#include "tag/ptag.hpp"

namespace mtf::tag {

struct GraphWriteOptions {
  // One <graph> per location (its TAG: its nodes, the edges into them) instead of one
  // graph for the whole program. A message or collective edge sits in the receiver's
  // graph and names the sender's node by its document-wide id (seed 004 section 2.2: the
  // receive node stores its incoming message edge).
  bool perProcess = false;
};

void writeGraphml(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
                  const GraphWriteOptions& options);
void writeDot(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
              const GraphWriteOptions& options);

}  // namespace mtf::tag
