#include "converters/mtf/binary/structure_codec.hpp"

#include <unordered_map>

#include "converters/mtf/binary/definitions_codec.hpp"
#include "converters/mtf/binary/node_columns.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;
using compaction::CodingError;
using compaction::putVarint;
using compaction::unzigzag;
using compaction::zigzag;

namespace {

uint64_t signedDifference(uint64_t a, uint64_t b) {
  return zigzag(static_cast<int64_t>(a - b));
}
uint64_t addDifference(uint64_t base, uint64_t coded) {
  return base + static_cast<uint64_t>(unzigzag(coded));
}

const char* sectionName(size_t s) {
  static const char* const names[kSectionCount] = {
      "index",     "definitions", "signatures",       "nodes",
      "locations", "annotations", "column dictionary"};
  return names[s];
}

}  // namespace

std::vector<uint8_t> encodeColumnIndex(const std::vector<IndexEntry>& index, uint32_t version) {
  std::vector<uint8_t> out;
  putVarint(out, index.size());
  uint64_t end = kHeaderSize, firstTime = 0;
  std::unordered_map<uint64_t, uint64_t> eventsBefore;  // per location index
  for (const IndexEntry& e : index) {
    const compaction::ColumnChunk& c = e.meta;
    uint64_t& before = eventsBefore[e.locationIndex];
    for (uint64_t v :
         {e.locationIndex, signedDifference(e.offset, end), e.storedSize,
          signedDifference(c.firstEvent, before), c.eventCount,
          signedDifference(c.firstTime, firstTime), signedDifference(c.lastTime, c.firstTime),
          signedDifference(c.firstTime, c.minTime), signedDifference(c.maxTime, c.lastTime)})
      putVarint(out, v);
    end = e.offset + chunkHeaderSize(version, e.storedSize) + e.storedSize;
    firstTime = c.firstTime;
    before = c.firstEvent + c.eventCount;
  }
  return out;
}

std::vector<IndexEntry> decodeColumnIndex(const std::vector<uint8_t>& raw, uint32_t version) {
  ByteReader r(raw);
  std::vector<IndexEntry> index(r.count(r.remaining() / 9, "index entry count"));
  uint64_t end = kHeaderSize, firstTime = 0;
  std::unordered_map<uint64_t, uint64_t> eventsBefore;
  for (IndexEntry& e : index) {
    compaction::ColumnChunk& c = e.meta;
    e.kind = ChunkKind::Columns;
    e.locationIndex = r.varint();
    e.offset = addDifference(end, r.varint());
    e.storedSize = r.varint();
    uint64_t& before = eventsBefore[e.locationIndex];
    c.firstEvent = addDifference(before, r.varint());
    c.eventCount = r.varint();
    c.firstTime = addDifference(firstTime, r.varint());
    c.lastTime = addDifference(c.firstTime, r.varint());
    c.minTime = c.firstTime - static_cast<uint64_t>(unzigzag(r.varint()));
    c.maxTime = addDifference(c.lastTime, r.varint());
    end = e.offset + chunkHeaderSize(version, e.storedSize) + e.storedSize;
    firstTime = c.firstTime;
    before = c.firstEvent + c.eventCount;
  }
  if (!r.atEnd()) throw CodingError{r.position(), "unexpected bytes after the last entry"};
  return index;
}

std::vector<uint8_t> encodeStructure(const compaction::CompactModel& m,
                                     const std::vector<IndexEntry>& index, SectionSizes* sizes) {
  const std::vector<uint8_t> sections[kSectionCount] = {
      encodeColumnIndex(index),
      encodeDefinitionsSection(m.definitions),
      encodeSignatures(m),
      encodeNodeColumns(m),
      encodeLocations(m),
      encodeAnnotations(m.annotations),
      m.columnDictionary ? m.columnDictionary->content() : std::vector<uint8_t>{}};
  std::vector<uint8_t> out;
  for (size_t s = 0; s < kSectionCount; ++s) {
    putVarint(out, sections[s].size());
    out.insert(out.end(), sections[s].begin(), sections[s].end());
    if (sizes) (*sizes)[s] = sections[s].size();
  }
  return out;
}

namespace {

void decodeSection(size_t s, const std::vector<uint8_t>& bytes, uint32_t version,
                   compaction::CompactModel& m, std::vector<IndexEntry>& index) {
  switch (static_cast<Section>(s)) {
    case Section::Index:
      index = decodeColumnIndex(bytes, version);
      break;
    case Section::Definitions:
      decodeDefinitionsSection(bytes, m.definitions, version);
      break;
    case Section::Signatures:
      decodeSignatures(bytes, m);
      break;
    case Section::Nodes:
      if (version == 3)
        decodeNodes(bytes, m);
      else
        decodeNodeColumns(bytes, m);
      break;
    case Section::Locations:
      decodeLocations(bytes, m);
      break;
    case Section::Annotations:
      decodeAnnotations(bytes, m.annotations);
      break;
    case Section::ColumnDictionary:
      if (!bytes.empty())
        m.columnDictionary = std::make_shared<values::ZstdDictionary>(bytes.data(), bytes.size());
      break;
  }
}

}  // namespace

void decodeStructure(const std::vector<uint8_t>& raw, uint32_t version, compaction::CompactModel& m,
                     std::vector<IndexEntry>& index, SectionSizes* sizes) {
  ByteReader r(raw);
  for (size_t s = 0; s < kSectionCount; ++s) {
    const uint64_t size = r.count(r.remaining(), "section size");
    const size_t start = r.position();
    const uint8_t* p = r.take(size);
    try {
      decodeSection(s, std::vector<uint8_t>(p, p + size), version, m, index);
    } catch (const CodingError& err) {
      throw CodingError{start + err.offset, std::string(sectionName(s)) + ": " + err.what};
    }
    if (sizes) (*sizes)[s] = size;
  }
  if (!r.atEnd()) throw CodingError{r.position(), "unexpected bytes after the last section"};
}

}  // namespace mtf::mtfbin
