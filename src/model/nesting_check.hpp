// Checks the enter/leave nesting of every location while events stream past. mtf keeps
// an unbalanced trace as it is (a converter must not invent or drop events: a call never
// left stays a call without a Leave, a stray Leave stays a leaf), and reports it with this
// check: `mtf info` prints the counts, `mtf convert` warns.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf {

struct NestingSummary {
  uint64_t maxDepth = 0;
  uint64_t callsNeverLeft = 0;    // Enters still open when the location's events end
  uint64_t unmatchedLeaves = 0;   // Leaves with no open Enter
  uint64_t mismatchedLeaves = 0;  // Leaves whose region is not the open Enter's
  uint64_t unbalancedLocations = 0;
  bool balanced() const {
    return callsNeverLeft == 0 && unmatchedLeaves == 0 && mismatchedLeaves == 0;
  }
};

class NestingCheck : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  // Inline, so that a collector can call it directly (NestingCheck::event) on its hot path:
  // most events are neither Enter nor Leave.
  void event(const Event& e) override {
    if (e.kind == EventKind::Enter || e.kind == EventKind::Leave) track(e);
  }
  // A decoder's block, all of one location: its state is looked up once.
  void eventBlock(const EventBlock& block) override {
    trackBlock(block, [](const Event&, size_t) {});
  }
  // The same, calling each(shape, i) on every event of the block first: a collector that
  // counts the events too does so in the same pass over the shapes.
  template <class Each>
  void trackBlock(const EventBlock& block, Each&& each) {
    const size_t n = block.size();
    if (n == 0) return;
    const Event* const* shapes = block.shapes();
    const LocationId location = shapes[0]->location;
    LocationNesting& s = last_ && last_->id == location ? *last_ : stateOf(location);
    for (size_t i = 0; i < n; ++i) {
      const Event& e = *shapes[i];
      each(e, i);
      if (e.kind == EventKind::Enter || e.kind == EventKind::Leave) track(s, e);
    }
  }
  bool takesEventBlocks() const override { return true; }
  void end() override;
  // A location's counts found by a stage that follows the nesting anyway (the compactor,
  // compaction/compactor.hpp), instead of its events: `counts.callsNeverLeft` is the depth
  // open at its end. Locations in the order given; end() then sums them as usual.
  void addCounted(LocationId id, const NestingSummary& counts);
  // Deeper than this, only the depth is counted: Leaves there are not checked against
  // their Enter's region (memory stays bounded on absurd nesting).
  static constexpr uint64_t kTrackedDepth = uint64_t{1} << 20;

  // Valid after end().
  const NestingSummary& summary() const { return total_; }
  // One line per unbalanced location (at most `limit`), e.g. "location 3: 2 calls never
  // left"; the caller prefixes the file name. Without `callsNeverLeft`, those are not
  // counted: only locations with stray or crossed leaves are described.
  std::vector<std::string> describe(size_t limit, bool callsNeverLeft = true) const;

 private:
  struct LocationNesting {
    LocationId id = 0;
    uint64_t depth = 0;
    // regions[0, min(depth, kTrackedDepth)): the open regions, innermost last (entries
    // past that are stale). Beyond kTrackedDepth only the depth is counted (the region
    // check is skipped there) so memory stays bounded on absurd nesting.
    std::vector<uint64_t> regions;
    NestingSummary counts;
  };

  // Inline: the common cases (a nesting Enter, the Leave of the innermost open call) cost
  // a few instructions; leave() handles the rest out of line.
  void track(const Event& e) {
    track(last_ && last_->id == e.location ? *last_ : stateOf(e.location), e);
  }
  // `e` is an Enter or a Leave of the location of `s`.
  void track(LocationNesting& s, const Event& e) {
    const uint64_t region = e.fields.empty() ? 0 : e.fields[0];
    if (e.kind == EventKind::Leave) {
      if (s.depth != 0 && s.depth <= kTrackedDepth && s.regions[s.depth - 1] == region) [[likely]] {
        --s.depth;
        return;
      }
      return leave(s, region);
    }
    if (s.depth < kTrackedDepth) [[likely]] {
      if (s.depth == s.regions.size()) [[unlikely]]
        grow(s);
      s.regions[s.depth] = region;
    }
    if (++s.depth > s.counts.maxDepth) s.counts.maxDepth = s.depth;
  }
  static void grow(LocationNesting& s);
  LocationNesting& stateOf(LocationId id);
  void leave(LocationNesting& s, uint64_t region);

  std::unordered_map<LocationId, size_t> index_;
  // index_ + 1 by small location id (0: not seen yet): events in time order alternate
  // between locations, so the last one (last_) seldom matches and the hash would be asked.
  std::vector<uint32_t> denseIndex_;
  std::vector<LocationNesting> locations_;
  LocationNesting* last_ = nullptr;
  NestingSummary total_;
};

}  // namespace mtf
