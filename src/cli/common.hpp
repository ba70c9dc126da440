// Helpers the commands share: opening inputs, printing loss reports, decimal seconds.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "model/trace_stream.hpp"
#include "registry/registry.hpp"

namespace mtf::cli {

// Opens TRACE with the reader its content calls for (InputError if none).
std::unique_ptr<TraceSource> openInput(const std::string& path, bool lenient, bool strict = false);

// "12.000345678" from ticks and ticks-per-second, exactly (integer arithmetic, no double).
std::string decimalSeconds(uint64_t ticks, uint64_t resolution);

// Flushes stdout; IoError if anything written there was lost (a full disk, a closed pipe).
void flushStdout();

// Merges b into a.
void mergeLosses(LossReport& a, const LossReport& b);

}  // namespace mtf::cli
