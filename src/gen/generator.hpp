// mtf-gen's engine: writes a generated trace (definitions, then every rank's events,
// rank after rank) into any TraceSink. Memory does not grow with the trace.
#pragma once

#include "gen/gen_options.hpp"
#include "model/trace_stream.hpp"

namespace mtf::gen {

// Validates `options` (resolving the grid), then calls sink.begin with the definitions
// (one system-tree node; per rank one location group "MPI Rank r" holding location r,
// "Master thread"; MPI_COMM_WORLD; the regions; the clock with the run's length; the
// run's parameters as properties "gen.*"), event for every event, rank after rank, and
// sink.end. Returns the number of events written.
uint64_t generate(GenOptions options, TraceSink& sink);

}  // namespace mtf::gen
