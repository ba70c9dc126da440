// The texts of an archive of version 4 (docs/mtf-format.md section 5.3): the definitions'
// texts in columns (the strings one kind of definition names in one field side by side),
// each either literal, named by number (MPI's function names: well_known_strings.hpp) or
// derived from another string of the same definition (a prefix, that string, a suffix:
// TAU's canonical name and edf line from a region's name), then the properties as pieces
// of literal text and references to those texts (TAU's edf is its regions' edf lines).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/definitions.hpp"
#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

// The order in which the texts of `records` are coded: strings grouped by the field of
// the first definition naming them, then strings no definition names, then the texts of
// the other records. Kinds and fields of `records` must be set; texts are not read.
std::vector<size_t> textOrder(const std::vector<DefRecord>& records);

void putTextsV4(std::vector<uint8_t>& out, const std::vector<DefRecord>& records,
                const std::map<std::string, std::string>& properties);
// Fills the texts of `records` (kinds and fields already read) and `properties`.
// Throws compaction::CodingError on bad data.
// `version` 4 or 5 (5: numbered texts, the larger table of well-known strings).
void readTextsV4(compaction::ByteReader& r, std::vector<DefRecord>& records,
                 std::map<std::string, std::string>& properties, uint32_t version);

}  // namespace mtf::mtfbin
