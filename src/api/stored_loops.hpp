// Loop nests an MTF file (binary or XML) stores as "nlr.loops" annotations: read without
// reading an event (used by `mtf loops` and the public API's Trace::loops).
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
};

// The stored loops of `path` (every location, or only `only`); nullopt if `path` is not
// an MTF file or stores none.
std::optional<StoredLoops> storedLoops(const std::string& path, std::optional<uint64_t> only);

}  // namespace mtf::api_impl
