// The edges of one kind a builder used last, in front of the graph's edge map (the same
// few edges are used over and over: see recent.hpp).
#pragma once

#include <cstdint>

#include "tag/activity_graph.hpp"
#include "tag/recent.hpp"

namespace mtf::tag {

class RecentEdges {
 public:
  RecentEdges(ActivityGraph& graph, EdgeKind kind) : graph_(graph), kind_(kind) {}
  // The edge from -> to of this kind, made if new.
  EdgeData& get(NodeId from, NodeId to) {
    const uint64_t key = uint64_t{from} << 32 | to;
    if (EdgeData* const* e = recent_.find(key)) return **e;
    EdgeData& e = graph_.edge(from, to, kind_);
    recent_.put(key, &e);
    return e;
  }

 private:
  ActivityGraph& graph_;
  EdgeKind kind_;
  Recent<uint64_t, EdgeData*> recent_;
};

}  // namespace mtf::tag
