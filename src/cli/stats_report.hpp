// What `mtf stats` and `mtf-mpi stats` print: the compaction figures (MTF paper, Table 1)
// per location and in total, and the archive's bytes, as JSON or as a table.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "compaction/compact_model.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::cli {

// The --json document; `fromFile`: the sizes were read from an archive (else estimated
// from an in-memory compaction).
nlohmann::ordered_json buildStats(const compaction::CompactModel& m,
                                  const mtfbin::ArchiveSizes& sizes,
                                  const std::vector<uint64_t>& valueBytesPerLocation,
                                  bool fromFile);
// The same as a table.
void printText(std::ostream& out, const nlohmann::ordered_json& j);

}  // namespace mtf::cli
