// The DAG nodes of an archive of version 4 (docs/mtf-format.md section 7.1): the nodes'
// kinds, signatures, leave signatures, edge counts, children, repetitions and edge types
// each side by side, and no event counts (a reader computes them from the children).
#pragma once

#include <cstdint>
#include <vector>

#include "compaction/compact_model.hpp"

namespace mtf::mtfbin {

std::vector<uint8_t> encodeNodeColumns(const compaction::CompactModel& m);
// Throws compaction::CodingError (offset within `raw`) on bad data; the DAG's consistency
// (children before parents, signatures in range) is checked by the model's validation.
void decodeNodeColumns(const std::vector<uint8_t>& raw, compaction::CompactModel& m);

}  // namespace mtf::mtfbin
