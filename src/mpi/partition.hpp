// How mtf-mpi shares a trace's locations among its processes: contiguous runs of the
// locations in definition order, balanced by events (not by locations), so that a
// process's share is one range of OTF2 event files or TAU thread files and the shares
// finish at about the same time.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "model/definitions.hpp"

namespace mtf::mpi {

// Share [begin, end) of a list of locations.
struct Share {
  size_t begin = 0;
  size_t end = 0;
  bool operator==(const Share&) const = default;
};

// `parts` contiguous shares of `weights` (in order), each boundary put where the weight
// before it comes closest to its fair part of the total. Shares may be empty (more
// processes than locations).
std::vector<Share> splitByWeight(const std::vector<uint64_t>& weights, size_t parts);

// The weight of each defined location (definition order): its estimated events
// (TraceSource::eventEstimates); a location without an estimate weighs the mean of the
// others (1 if none is known, which balances by count of locations).
std::vector<uint64_t> locationWeights(const Definitions& defs,
                                      const std::map<LocationId, uint64_t>& estimates);

}  // namespace mtf::mpi
