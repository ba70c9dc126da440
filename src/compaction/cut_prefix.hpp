// What the events of a location before a time window leave behind for a cut at the
// window's start (filter/time_window.hpp), from the DAG alone: the calls still open, a
// collective still open, and the messages sent and received per signature (a signature
// fixes the channel: partner, communicator, tag). Each DAG node's effect is computed once
// and applied for all its repetitions at once, so the cost grows with the DAG, not with
// the events skipped (an .mtf window costs the window, not what lies before it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "compaction/compact_model.hpp"
#include "model/event.hpp"

namespace mtf::compaction {

// Told what precedes a window without its events (ExpandOptions::prefix): the calls and
// collectives open come as ordinary Enter / MpiCollectiveBegin events before the window's
// first event; the messages as counts.
class PrefixSink {
 public:
  virtual ~PrefixSink() = default;
  // `count` messages like `message` (its values 0) before the window.
  virtual void messagesBefore(const Event& message, uint64_t count) = 0;
};

// The effect of a run of events on a cut after it.
struct CutEffect {
  uint64_t pops = 0;                   // Leaves of calls entered before the run
  std::vector<SigId> pushes;           // Enters still open at the run's end, outermost first
  int8_t collective = -1;              // last MpiCollectiveBegin (1) / End (0); -1: none
  std::map<SigId, uint64_t> messages;  // point-to-point events by signature
  // This run followed by `next`.
  void then(const CutEffect& next, uint64_t times = 1);
};

// Accumulates the effect of the events an Expander skips (Expander::SkipVisitor).
class CutPrefix {
 public:
  explicit CutPrefix(const CompactModel& model) : model_(model), memo_(model.nodes.size()) {}
  void event(SigId sig);                      // one event
  void subtree(NodeId node, uint64_t times);  // `times` whole expansions of `node`
  const CutEffect& effect() const { return total_; }

 private:
  const CutEffect& effectOf(NodeId node);
  CutEffect eventEffect(SigId sig) const;
  const CompactModel& model_;
  std::vector<std::optional<CutEffect>> memo_;
  CutEffect total_;
};

}  // namespace mtf::compaction
