// Serialisation of the parts of a CompactModel (definitions, signatures, nodes,
// locations, annotations) and of the archive index, to and from raw chunk payloads.
#pragma once

#include <cstdint>
#include <vector>

#include "compaction/compact_model.hpp"
#include "converters/mtf/binary/archive_layout.hpp"

namespace mtf::mtfbin {

struct IndexEntry {
  ChunkKind kind = ChunkKind::Columns;
  uint64_t offset = 0;      // of the chunk header in the file
  uint64_t storedSize = 0;  // bytes after the chunk header
  // Columns only:
  uint64_t locationIndex = 0;    // into CompactModel::locations
  compaction::ColumnChunk meta;  // firstEvent, eventCount, times (encoded empty)
};

// Definitions as versions 1 and 2 store them (version 3: definitions_codec.hpp).
std::vector<uint8_t> encodeDefinitions(const Definitions& defs);
std::vector<uint8_t> encodeSignatures(const compaction::CompactModel& m);
std::vector<uint8_t> encodeNodes(const compaction::CompactModel& m);
// Locations without their columns (those are in the index), with their annotations.
std::vector<uint8_t> encodeLocations(const compaction::CompactModel& m);
std::vector<uint8_t> encodeAnnotations(const std::vector<compaction::Annotation>& a);
std::vector<uint8_t> encodeIndex(const std::vector<IndexEntry>& index);

// Decoders throw compaction::CodingError (offset within the payload) on bad data.
void decodeDefinitions(const std::vector<uint8_t>& raw, Definitions& defs);
void decodeSignatures(const std::vector<uint8_t>& raw, compaction::CompactModel& m);
void decodeNodes(const std::vector<uint8_t>& raw, compaction::CompactModel& m);
void decodeLocations(const std::vector<uint8_t>& raw, compaction::CompactModel& m);
void decodeAnnotations(const std::vector<uint8_t>& raw, std::vector<compaction::Annotation>& a);
std::vector<IndexEntry> decodeIndex(const std::vector<uint8_t>& raw);

}  // namespace mtf::mtfbin
