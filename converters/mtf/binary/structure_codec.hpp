// The content of the Structure chunk of an archive of version 3 or 4 (docs/mtf-format.md
// section 3.2): the column index and every part of the model in one LZMA2 stream, as
// sections (a varint length, then the bytes): index, definitions, signatures, nodes,
// locations, annotations, column dictionary (empty if the archive has none:
// values/column_dictionary.hpp). Version 4 codes the definitions' texts
// (definition_texts.hpp) and the nodes (node_columns.hpp) anew.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "converters/mtf/binary/model_codec.hpp"

namespace mtf::mtfbin {

enum class Section : uint8_t {
  Index,
  Definitions,
  Signatures,
  Nodes,
  Locations,
  Annotations,
  ColumnDictionary
};
inline constexpr size_t kSectionCount = 7;
using SectionSizes = std::array<uint64_t, kSectionCount>;  // raw bytes of each section

// `index` holds the column chunks' entries only.
std::vector<uint8_t> encodeStructure(const compaction::CompactModel& m,
                                     const std::vector<IndexEntry>& index,
                                     SectionSizes* sizes = nullptr);
// `version`: the archive's (3 or 4: how the definitions are coded). Throws
// compaction::CodingError (offset within `raw`) on bad data.
void decodeStructure(const std::vector<uint8_t>& raw, uint32_t version, compaction::CompactModel& m,
                     std::vector<IndexEntry>& index, SectionSizes* sizes = nullptr);

// Version 3's column index: per entry the location index, the gap since the end of the
// previous chunk, the stored size, the first event's distance from the events of the
// location's previous chunks, the event count, and the times as differences.
// The gaps count from the end of the previous chunk, whose header size depends on `version`.
std::vector<uint8_t> encodeColumnIndex(const std::vector<IndexEntry>& index,
                                       uint32_t version = kVersion);
std::vector<IndexEntry> decodeColumnIndex(const std::vector<uint8_t>& raw,
                                          uint32_t version = kVersion);

}  // namespace mtf::mtfbin
