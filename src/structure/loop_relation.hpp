// The structure's periods next to Nested Loop Recognition's loops (the loop-nest view): a
// periodic zone's period should match the time one iteration of the outermost loop takes.
// NLR's models hold no times, so the outermost loop's iteration time comes from a second
// read of one location: the times of its communication events at the loop's first and
// last iteration (NLR's symbols in Communication selection are exactly those events:
// messages and collective ends; their order inside one MPI call does not move a call
// boundary, so the times are those of the right calls).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/trace_stream.hpp"
#include "nlr/nlr_sink.hpp"
#include "structure/structure.hpp"

namespace mtf::structure {

// The loop with the most events at the top of one location's model (world rank 0's, or
// the first location's), by the indices of its communication events.
struct OuterLoop {
  LocationId location = 0;
  int64_t worldRank = -1;
  uint64_t iterations = 0;
  uint64_t firstSymbol = 0;  // index of the loop's first event among the location's
  uint64_t bodySymbols = 0;  // events of one iteration
};
std::optional<OuterLoop> outermostLoop(const std::vector<nlr::LocationLoops>& loops);

// Finds the times of a location's communication events with the given indices.
class SymbolTimes : public TraceSink {
 public:
  SymbolTimes(LocationId location, std::vector<uint64_t> indices);
  void begin(const Definitions&) override {}
  void event(const Event& e) override;
  void end() override {}
  // The time of indices[i], or nullopt if the location has fewer events.
  std::optional<Tick> timeOf(size_t i) const { return times_[i]; }

 private:
  LocationId location_;
  std::vector<uint64_t> indices_;
  std::vector<std::optional<Tick>> times_;
  uint64_t seen_ = 0;
};

struct LoopTiming {
  OuterLoop loop;
  Tick start = 0;             // the loop's first event
  double iterationTicks = 0;  // mean ticks from one iteration's first event to the next's
};

// One line comparing the loop with the periodic zone, at any level, whose period is nearest
// the loop's iteration time: both periods, whether they agree within `tolerance`, and when
// not, whether one is a whole multiple of the other (NLR's outer loop can be a
// super-period: a check every k iterations makes its body k iterations long).
std::string relateLoopAndZones(const LoopTiming& t, const std::vector<StructureRegion>& regions,
                               uint64_t resolution, double tolerance = 0.05);

}  // namespace mtf::structure
