// `--construct PATH --iterations A-B`: iterations A to B of a loop of the program model
// (`mtf model --positions` prints PATH) on every rank at once, cut by position (the
// model's events counted on each rank), not by time: ranks whose iterations drift apart
// are each cut at the same iteration.
//
// The model counts only its own events (MPI messages and collectives); the calls and
// other events between the last model event of one iteration and the first of the next
// are split where the call depth is lowest between them (right after the first event
// that reaches it): an iteration's enclosing call (`Enter iteration`) goes with it, the
// `Leave` of the previous one with the previous one. Iterations of a loop nested in
// others are numbered on, over every run of the loop (A = N + 1 is the first iteration
// of its second run, N its iteration count). Two passes over the input: IterationBounds
// finds each rank's first and last event, then a CutSink with an IterationRule cuts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "filter/time_window.hpp"
#include "program/program_model.hpp"

namespace mtf::filter {

struct IterationRange {
  uint64_t first = 1, last = 1;  // from 1, inclusive
};
// "3" or "3-7"; `option` names it in errors (TimeSpecError: exit 2).
IterationRange parseIterations(const std::string& text, const std::string& option);

// The model positions (from 0) of the first and the last event of the range on a rank.
struct PositionRange {
  uint64_t first = 0, last = 0;
};
// Per location of the model's processes that loop `path` covers. Throws TimeSpecError if
// `path` is not a loop or the range is outside its iterations (UsageError for a bad path).
std::map<LocationId, PositionRange> iterationPositions(const program::ProgramModel& model,
                                                       const std::string& path,
                                                       const IterationRange& range);

// Events [first, end) of a location's stream, by index from 0.
struct EventRange {
  uint64_t first = 0, end = 0;
};

// The first pass: each location's event range of the iterations.
class IterationBounds : public TraceSink {
 public:
  explicit IterationBounds(std::map<LocationId, PositionRange> positions);
  ~IterationBounds() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  // Throws InputError naming `trace` if a rank has fewer model events than the model says.
  std::map<LocationId, EventRange> ranges(const std::string& trace) const;

 private:
  struct Rank;
  std::map<LocationId, PositionRange> positions_;
  std::unique_ptr<struct IterationContext> context_;
  std::map<LocationId, std::unique_ptr<Rank>> ranks_;
};

// The second pass: keeps each location's range; the calls open at its first kept event
// are entered again there and those open at its last kept event left there. Locations
// without a range (not a process of the model) keep nothing.
class IterationRule : public CutRule {
 public:
  explicit IterationRule(std::map<LocationId, EventRange> ranges) : ranges_(std::move(ranges)) {}
  void begin(const Definitions&, ClockProperties&) override {}
  Side sideOf(const Event& e, uint64_t index) override;
  std::optional<Tick> startOf(LocationId, std::optional<Tick> firstKept) override {
    return firstKept;
  }
  std::optional<Tick> endOf(LocationId, std::optional<Tick> lastKept) override { return lastKept; }

 private:
  std::map<LocationId, EventRange> ranges_;
};

}  // namespace mtf::filter
