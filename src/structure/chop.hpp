// A chop: the events of K iterations of a periodic zone, cut by a time window
// (filter/time_window.hpp) and passed on to another sink (a writer) as a trace of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "filter/time_window.hpp"

namespace mtf::structure {

using ChopWindow = filter::TimeWindow;

struct StructureRegion;
struct NoPeriodicZone {};

// The window of K iterations of level-1 periodic zone `zone` (from 1): K periods from the
// zone's middle iteration (the one its inner level was searched in), moved back if the
// zone ends sooner; with `withInit`, from the trace's start `traceStart` to the end of
// the zone's first K iterations. Throws NoPeriodicZone if there is none, UsageError if
// `zone` or `iterations` is out of range.
ChopWindow chopWindow(const std::vector<StructureRegion>& regions, Tick traceStart, unsigned zone,
                      uint64_t iterations, bool withInit, bool shift);

// The chop's cut: a time window.
class ChopSink : public filter::CutSink {
 public:
  ChopSink(TraceSink& out, const ChopWindow& window)
      : CutSink(out, std::make_unique<filter::TimeWindowRule>(window)) {}
};

}  // namespace mtf::structure
