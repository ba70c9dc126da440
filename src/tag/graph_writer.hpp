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
  // graph (seed 004 section 2.2: the receive node stores its incoming message edge); as
  // GraphML edges only join nodes of their own graph, the sender's node appears there as
  // a node of kind "remote" (id r<n> for the sender's n<n>, no profile).
  bool perProcess = false;
};

void writeGraphml(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
                  const GraphWriteOptions& options);
void writeDot(std::ostream& out, const ActivityGraph& graph, const Ptag& ptag,
              const GraphWriteOptions& options);

}  // namespace mtf::tag
