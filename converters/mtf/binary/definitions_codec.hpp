// The definitions of an archive of version 3 (docs/mtf-format.md section 5.2): the
// records' fields stored column-wise per kind, each field as the difference to the same
// field of the previous record of that kind, and the texts either literal or as a
// reference into the trace-info properties when they repeat a piece of them (TAU's edf
// lines and names, Paraver's pcf labels).
#pragma once

#include <cstdint>
#include <vector>

#include "model/definitions.hpp"
#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

std::vector<uint8_t> encodeDefinitionsV3(const Definitions& defs);
// Throws compaction::CodingError (offset within `raw`) on bad data.
void decodeDefinitionsV3(const std::vector<uint8_t>& raw, Definitions& defs);

// The part versions 2 and 3 share: clock, format, creator, version and properties.
void putDefinitionsHead(std::vector<uint8_t>& out, const Definitions& defs);
void readDefinitionsHead(compaction::ByteReader& r, Definitions& defs);

// True if `fields` has exactly the fields its schema implies (repeated group included).
bool fieldCountFits(const KindSchema& s, const std::vector<uint64_t>& fields);

}  // namespace mtf::mtfbin
