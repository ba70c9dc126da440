// Walks one location's DAG in expansion order: the events' signatures and contexts,
// without their values. Can jump forward by a number of events in O(depth * edges)
// thanks to the per-node event counts (random access into a location).
#pragma once

#include <vector>

#include "compaction/compact_model.hpp"

namespace mtf::compaction {

struct ExpansionStep {
  SigId sig = kNoSig;
  uint32_t context = 0;  // enterContext / nodeContext (compactor.hpp)
};

class Expander {
 public:
  // The model's nodes must be consistent (CompactModel::check) before expanding.
  Expander(const CompactModel& model, NodeId root);
  // The next event's step; false after the last event.
  bool next(ExpansionStep& step);
  // Skips `events` events (fewer if the expansion ends first).
  void skip(uint64_t events) { skip(events, nullptr); }
  // Told what is skipped: single events, and whole subtrees (each `times` in a row).
  class SkipVisitor {
   public:
    virtual ~SkipVisitor() = default;
    virtual void event(SigId sig) = 0;
    virtual void subtree(NodeId node, uint64_t times) = 0;
  };
  void skip(uint64_t events, SkipVisitor* visitor);

 private:
  struct Frame {
    NodeId node;
    uint32_t edge = 0;
    uint64_t rep = 0;
    uint8_t phase = 0;  // 0: not started, 1: in children, 2: children done
  };
  const CompactModel& model_;
  std::vector<Frame> stack_;
};

}  // namespace mtf::compaction
