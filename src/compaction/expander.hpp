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

// The expansions of the model's small call and sequence nodes, each walked once and kept
// as its steps: an expander then copies a repeated loop body instead of walking it again
// for every repetition. Built once per model and only read afterwards, so expanders on
// several threads share it. At most `budget` steps are kept (memory stays bounded on
// DAGs of many distinct nodes: the others are walked as before).
class FlatExpansions {
 public:
  static constexpr uint64_t kMaxNodeEvents = 256;
  static constexpr size_t kDefaultBudget = size_t{1} << 19;  // steps of 8 bytes: 4 MiB
  // The model's nodes must be consistent (CompactModel::check).
  explicit FlatExpansions(const CompactModel& model, size_t budget = kDefaultBudget);
  // One expansion of `node` (its eventCount steps), or nullptr if it is not kept.
  const ExpansionStep* of(NodeId node) const {
    return node < begin_.size() && begin_[node] != kNotKept ? steps_.data() + begin_[node]
                                                            : nullptr;
  }

 private:
  static constexpr uint32_t kNotKept = ~uint32_t{0};
  bool flatten(const CompactModel& model, NodeId id);
  std::vector<ExpansionStep> steps_;
  std::vector<uint32_t> begin_;  // per node: where its steps begin, or kNotKept
};

class Expander {
 public:
  // The model's nodes must be consistent (CompactModel::check) before expanding.
  // `flat` (optional, must outlive the expander): replayed instead of walked.
  Expander(const CompactModel& model, NodeId root, const FlatExpansions* flat = nullptr);
  // The next event's step; false after the last event.
  bool next(ExpansionStep& step) { return fill(&step, 1) == 1; }
  // The next `max` steps into `out`; fewer (their number is returned) only at the end.
  size_t fill(ExpansionStep* out, size_t max);
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
  // Writes the next repetitions of edge `e` of frame `f` that fit in out[n, max) as whole
  // copies (a leaf, or a node with a flat expansion); returns the new n, or n if none
  // fits (the caller then descends into one repetition).
  size_t copyRepetitions(Frame& f, const Edge& e, ExpansionStep* out, size_t n, size_t max);
  const CompactModel& model_;
  const FlatExpansions* flat_;
  std::vector<Frame> stack_;
};

}  // namespace mtf::compaction
