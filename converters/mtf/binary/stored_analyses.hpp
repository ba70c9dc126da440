// Which analyses the .mtf writer stores. The loop nests ("nlr.loops") and the program
// model ("program.model") are deterministic functions of the events: a cache. They are
// stored only where they summarise the events; where they would restate them (task-based,
// irregular traces: a nest about as long as the event sequence the DAG already holds) they
// are left out, and every reader recomputes them from the decoded events with the options
// the writer uses (nlr::storedSignatureOptions(), program::modelSignatureOptions()).
#pragma once

#include <cstdint>

#include "compaction/compact_model.hpp"
#include "nlr/loop_annotation.hpp"

namespace mtf::mtfbin {

// A location's nest is stored when its location has at least this many events and the
// nest's bytes are at most 1/kSummaryFactor of its events: below, NLR recomputes it in
// no time; above that size, the nest restates the events rather than summarising them.
inline constexpr uint64_t kMinStoredEvents = 1024;
inline constexpr uint64_t kSummaryFactor = 4;

// True if an analysis of `events` events, `blobBytes` long, is worth storing.
inline bool summarises(uint64_t blobBytes, uint64_t events) {
  return events >= kMinStoredEvents && blobBytes * kSummaryFactor <= events;
}

// Gives each location of `model` its loop nest from `loops` (annotation "nlr.loops") where
// it summarises.
void attachLoopNests(const nlr::LoopAnnotationSink& loops, compaction::CompactModel& model);
// After attachLoopNests (for mtf-mpi: on the merged model): if a location with events has
// no nest, adds the empty trace-wide annotation "nlr.loops" (nlr::kLoopAnnotationName's
// documentation): readers recompute the absent nests.
void markLeftOutLoopNests(compaction::CompactModel& model);
bool hasLoopNest(const compaction::LocationModel& location);

// True if the program model's blob, `blobBytes` long, is worth storing in `model`. Recomputing it
// reads every event, so it is weighed against all of them.
bool storesProgramModel(size_t blobBytes, const compaction::CompactModel& model);

}  // namespace mtf::mtfbin
