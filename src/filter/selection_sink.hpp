// Applies a Selection while streaming: passes on to `out` only the events it keeps, with
// definitions pruned to the kept locations (prune_definitions.hpp) and MPI ranks
// renumbered to match. Calls stay balanced: a call's Enter and Leave are kept or dropped
// together (decided at the Enter, per location; a Leave closes the innermost open call and
// is written with that call's region). Message events whose partner is not
// kept are dropped and counted as losses: a partner on an unselected location at once;
// a partner the region or kind filters dropped by matching sends to receives per channel
// (sender, receiver, communicator, tag) in order, as MPI matches them. Memory grows with
// the locations, their call depth and the messages not yet matched on each channel.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "filter/prune_definitions.hpp"
#include "filter/selection.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"

namespace mtf::filter {

class SelectionSink : public TraceSink {
 public:
  SelectionSink(TraceSink& out, Selection selection);
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override { out_.end(); }
  // What the selection itself lost (not the losses of `out`).
  LossReport losses() const override;

  uint64_t eventsSeen() const { return seen_; }
  uint64_t eventsKept() const { return kept_; }

 private:
  struct OpenCall {
    bool kept = false, matched = false, excluded = false;
    uint64_t region = 0;
  };
  struct CallState {
    std::vector<OpenCall> stack;
    size_t matchedOpen = 0, excludedOpen = 0;  // open calls matching --regions / excluded
  };
  struct Pending {  // kept-flags of a channel's sends or receives not yet matched
    std::deque<bool> sends, recvs;
  };
  using ChannelKey = std::tuple<LocationId, LocationId, uint64_t, uint64_t>;

  uint8_t classOf(Ref region) const;
  bool keepsCall(const Event& e);
  bool insideKeptCall(const CallState& s) const;
  bool handleMessage(const Event& e, bool keep, Event& out);
  void match(const Event& e, LocationId partner, bool keep);
  void renumberRoot(const Event& e, Event& out);

  TraceSink& out_;
  Selection selection_;
  std::optional<PrunedDefinitions> pruned_;
  std::unique_ptr<RankMap> ranks_;  // when nothing is pruned
  ThreadMessageAttributes threadMessages_;
  std::unordered_map<Ref, uint8_t> regionClass_;  // bit 0: matches --regions; bit 1: excluded
  std::unordered_map<LocationId, CallState> calls_;
  std::map<ChannelKey, Pending> channels_;
  uint64_t leftRegion_ = 0;  // the region of the call the last Enter or Leave opened or closed
  uint64_t seen_ = 0, kept_ = 0;
  uint64_t partnerNotSelected_ = 0, partnerFiltered_ = 0, rootNotSelected_ = 0;
  Event scratch_;
};

}  // namespace mtf::filter
