// A process's share of the input: the reader, restricted to this process's locations
// (partition.hpp) where the format allows it (OTF2 event files, TAU thread files, MTF
// column chunks), filtered event by event where it does not (Paraver's one time-ordered
// file: every process reads it, keeping its locations' events).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf::mpi {

struct ShareInput {
  std::unique_ptr<TraceSource> source;
  std::vector<LocationId> locations;  // this process's, in definition order
  bool filtered = false;              // the reader reads every location; events are filtered
  bool takesUndefined = false;        // the last process also gets undefined locations' events
};

// Opens `path` and picks share `rank` of `size`, balanced by events.
ShareInput openShare(const std::string& path, bool lenient, int rank, int size);

// Reads the share into `sink`: begin, this process's events, end (an empty share reads
// nothing but still begins and ends the sink).
void readShare(ShareInput& share, TraceSink& sink);

}  // namespace mtf::mpi
