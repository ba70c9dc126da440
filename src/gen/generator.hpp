// mtf-gen's engine: writes a generated trace (definitions, then every rank's events,
// rank after rank) into any TraceSink. Memory does not grow with the trace.
#pragma once

#include "gen/gen_options.hpp"
#include "model/trace_stream.hpp"

namespace mtf::gen {

// The definitions of a generated trace: one system-tree node, one location group
// (process) and one location ("Master thread") per rank, MPI_COMM_WORLD, the regions.
// `options` must have been through resolveAndValidate.
Definitions generatedDefinitions(const GenOptions& options);

// Validates `options` (resolving the grid), then calls sink.begin, event for every event,
// and sink.end. Returns the number of events written.
uint64_t generate(GenOptions options, TraceSink& sink);

}  // namespace mtf::gen
