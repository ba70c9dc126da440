// Loop nests an MTF file (binary or XML) stores as "nlr.loops" annotations: read without
// reading an event (used by `mtf loops`, `mtf graph` and the public API's Trace::loops).
// Where the writer left a location's nest out (it did not summarise the events; the
// trace-wide "nlr.loops" says so), it is recomputed from that location's events with the
// writer's options: the result is the same whether the nests were stored or not.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/definitions.hpp"
#include "nlr/nlr_sink.hpp"

namespace mtf::api_impl {

struct StoredLoops {
  Definitions defs;
  std::vector<nlr::LocationLoops> loops;
  size_t recomputedLocations = 0;  // of `loops`, those left out by the writer
};

// The stored loops of `path` (every location, or only `only`), the left-out ones
// recomputed; nullopt if `path` is not an MTF file or was written without loops.
std::optional<StoredLoops> storedLoops(const std::string& path, std::optional<uint64_t> only);

}  // namespace mtf::api_impl
