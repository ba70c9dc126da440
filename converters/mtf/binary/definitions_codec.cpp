#include "converters/mtf/binary/definitions_codec.hpp"

#include <algorithm>
#include <string_view>

#include "converters/mtf/binary/definition_texts.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;
using compaction::CodingError;
using compaction::putString;
using compaction::putVarint;

namespace {

void putTraceFacts(std::vector<uint8_t>& out, const Definitions& defs) {
  const ClockProperties& c = defs.clock;
  for (uint64_t v : {c.resolution, c.globalOffset, c.traceLength, c.realtime}) putVarint(out, v);
  putString(out, defs.info.format);
  putString(out, defs.info.creator);
  putString(out, defs.info.version);
}

void readTraceFacts(ByteReader& r, Definitions& defs) {
  defs.clock.resolution = r.varint();
  defs.clock.globalOffset = r.varint();
  defs.clock.traceLength = r.varint();
  defs.clock.realtime = r.varint();
  defs.info.format = readString(r);
  defs.info.creator = readString(r);
  defs.info.version = readString(r);
}

}  // namespace

void putDefinitionsHead(std::vector<uint8_t>& out, const Definitions& defs) {
  putTraceFacts(out, defs);
  putVarint(out, defs.info.properties.size());
  for (const auto& [key, value] : defs.info.properties) {
    putString(out, key);
    putString(out, value);
  }
}

void readDefinitionsHead(ByteReader& r, Definitions& defs) {
  readTraceFacts(r, defs);
  for (uint64_t n = r.count(r.remaining(), "property count"); n > 0; --n) {
    std::string key = readString(r);
    defs.info.properties[key] = readString(r);
  }
}

bool fieldCountFits(const KindSchema& s, const std::vector<uint64_t>& fields) {
  if (!s.hasGroup()) return fields.size() == s.fields.size();
  if (fields.size() < s.fixedCount) return false;
  const uint64_t repeats = fields[s.fixedCount - 1];
  return repeats <= fields.size() && fields.size() == s.fixedCount + repeats * s.groupSize;
}

namespace {

// Texts shorter than this are stored literally: a reference would not be smaller.
constexpr size_t kMinReference = 4;
// Where a reference is looked for: around the end of the previous one (the texts that
// repeat the properties do so in the properties' order).
constexpr size_t kLookBack = 1024;
constexpr size_t kLookAhead = 8192;

// The properties' values, concatenated in key order: what texts may refer to.
std::string propertyText(const Definitions& defs) {
  std::string all;
  for (const auto& [key, value] : defs.info.properties) all += value;
  return all;
}

// The records of `kinds` (their positions in the definitions) as columns: field counts,
// then field by field the differences to the previous record that has that field.
void putKindColumns(std::vector<uint8_t>& out, const std::vector<DefRecord>& records,
                    const std::vector<size_t>& ofKind) {
  size_t widest = 0;
  for (size_t i : ofKind) {
    putVarint(out, records[i].fields.size());
    widest = std::max(widest, records[i].fields.size());
  }
  for (size_t f = 0; f < widest; ++f) {
    uint64_t previous = 0;
    for (size_t i : ofKind) {
      if (f >= records[i].fields.size()) continue;
      const uint64_t value = records[i].fields[f];
      putVarint(out, compaction::zigzag(static_cast<int64_t>(value - previous)));
      previous = value;
    }
  }
}

// Texts: tag 0 and a literal string, or tag 1 and the piece [start, end) of the property
// text, as the zigzag differences of start and end to those of the previous reference:
// a region's name, canonical name and edf line, one inside the next, then differ by
// nearly constant amounts.
void putTexts(std::vector<uint8_t>& out, const Definitions& defs) {
  const std::string all = propertyText(defs);
  const std::string_view text(all);
  size_t previousStart = 0, cursor = 0;  // cursor: the previous reference's end
  for (const DefRecord& rec : defs.records()) {
    size_t at = std::string_view::npos;
    if (rec.text.size() >= kMinReference && !text.empty()) {
      const size_t from = cursor > kLookBack ? cursor - kLookBack : 0;
      const size_t window = std::min(text.size() - from, cursor - from + kLookAhead);
      at = text.substr(from, window).find(rec.text);
      if (at != std::string_view::npos) at += from;
    }
    if (at == std::string_view::npos) {
      putVarint(out, 0);
      putString(out, rec.text);
      continue;
    }
    putVarint(out, 1);
    putVarint(out, compaction::zigzag(static_cast<int64_t>(at - previousStart)));
    putVarint(out, compaction::zigzag(static_cast<int64_t>(at + rec.text.size() - cursor)));
    previousStart = at;
    cursor = at + rec.text.size();
  }
}

// Record count, kinds, then per kind its field counts and field columns.
void putRecordColumns(std::vector<uint8_t>& out, const std::vector<DefRecord>& records) {
  putVarint(out, records.size());
  std::vector<std::vector<size_t>> byKind(kDefKindCount);
  for (size_t i = 0; i < records.size(); ++i) {
    putVarint(out, static_cast<uint64_t>(records[i].kind));
    byKind[static_cast<size_t>(records[i].kind)].push_back(i);
  }
  for (const std::vector<size_t>& ofKind : byKind) putKindColumns(out, records, ofKind);
}

}  // namespace

std::vector<uint8_t> encodeDefinitionsV3(const Definitions& defs) {
  std::vector<uint8_t> out;
  putDefinitionsHead(out, defs);
  putRecordColumns(out, defs.records());
  putTexts(out, defs);
  return out;
}

std::vector<uint8_t> encodeDefinitionsSection(const Definitions& defs) {
  std::vector<uint8_t> out;
  putTraceFacts(out, defs);
  putRecordColumns(out, defs.records());
  putTextsV4(out, defs.records(), defs.info.properties);
  return out;
}

namespace {

// `promised`: fields announced so far and not yet read; each takes at least one byte,
// so their total is bounded by the bytes that remain before anything is allocated.
void readKindColumns(ByteReader& r, std::vector<DefRecord>& records,
                     const std::vector<size_t>& ofKind) {
  size_t widest = 0;
  uint64_t promised = 0;
  for (size_t i : ofKind) {
    const uint64_t n =
        r.count(r.remaining() - std::min(r.remaining(), promised), "definition field count");
    records[i].fields.resize(n);
    promised += n;
    widest = std::max(widest, records[i].fields.size());
  }
  for (size_t f = 0; f < widest; ++f) {
    uint64_t previous = 0;
    for (size_t i : ofKind) {
      if (f >= records[i].fields.size()) continue;
      previous += static_cast<uint64_t>(compaction::unzigzag(r.varint()));
      records[i].fields[f] = previous;
    }
  }
}

void readTexts(ByteReader& r, std::vector<DefRecord>& records, const std::string& all) {
  uint64_t previousStart = 0, previousEnd = 0;
  for (DefRecord& rec : records) {
    const size_t at = r.position();
    const uint64_t tag = r.varint();
    if (tag == 0) {
      rec.text = readString(r);
      continue;
    }
    const uint64_t start = previousStart + static_cast<uint64_t>(compaction::unzigzag(r.varint()));
    const uint64_t end = previousEnd + static_cast<uint64_t>(compaction::unzigzag(r.varint()));
    if (tag != 1 || start > end || end > all.size())
      throw CodingError{at, "text reference outside the properties"};
    rec.text = all.substr(start, end - start);
    previousStart = start;
    previousEnd = end;
  }
}

}  // namespace

void decodeDefinitionsSection(const std::vector<uint8_t>& raw, Definitions& defs,
                              uint32_t version) {
  ByteReader r(raw);
  if (version == 3)
    readDefinitionsHead(r, defs);
  else
    readTraceFacts(r, defs);
  std::vector<DefRecord> records(r.count(r.remaining(), "definition count"));
  std::vector<std::vector<size_t>> byKind(kDefKindCount);
  for (size_t i = 0; i < records.size(); ++i) {
    const size_t at = r.position();
    const uint64_t kind = r.varint();
    if (kind >= kDefKindCount)
      throw CodingError{at, "unknown definition kind " + std::to_string(kind)};
    records[i].kind = static_cast<DefKind>(kind);
    byKind[kind].push_back(i);
  }
  for (const std::vector<size_t>& ofKind : byKind) readKindColumns(r, records, ofKind);
  if (version == 3)
    readTexts(r, records, propertyText(defs));
  else
    readTextsV4(r, records, defs.info.properties, version);
  const size_t end = r.position();
  if (!r.atEnd()) throw CodingError{end, "unexpected bytes after the last definition"};
  for (DefRecord& rec : records) {
    if (!fieldCountFits(schemaOf(rec.kind), rec.fields))
      throw CodingError{end,
                        std::string(nameOf(rec.kind)) + " definition with a wrong field count"};
    defs.add(std::move(rec));
  }
}

}  // namespace mtf::mtfbin
