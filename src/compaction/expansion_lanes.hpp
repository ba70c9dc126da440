// Expanding several locations with their column chunks decoded on several threads at
// once, the sink seeing exactly what one thread would hand it: location after location,
// each location's events in order.
//
// The work is cut into units, one column chunk each, in that order. Unit u goes to lane
// u mod L. Lane 0 is the calling thread: it decodes its units straight into the sink and,
// between them, hands on the events the other lanes decoded into blocks for their units
// (a ring of blocks per lane, holding about one chunk: a lane decodes its next unit while
// the calling thread is busy with the one before). Only the calling thread calls the
// sink, so a sink needs no care for threads. Memory is bounded by the chunk size, not by
// the trace's length.
#pragma once

#include <vector>

#include "compaction/decompactor.hpp"

namespace mtf::compaction {

// The events of the locations `indices` (into model.locations, in this order) into
// `sink` (event() calls only), as expandLocation on each in turn would, on
// options.lanes lanes (0: one per core, at most 4). With a prefix sink, or fewer than
// two chunks to decode, on the calling thread alone.
void expandLocations(const CompactModel& model, const std::vector<size_t>& indices,
                     const ExpandOptions& options, TraceSink& sink);

// The lanes expandLocations uses when options.lanes is 0.
size_t defaultExpansionLanes();

}  // namespace mtf::compaction
