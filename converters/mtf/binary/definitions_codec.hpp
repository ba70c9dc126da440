// The definitions section of an archive of version 3 or 4 (docs/mtf-format.md section 5):
// the records' fields stored column-wise per kind, each field as the difference to the same
// field of the previous record of that kind. Version 3: the properties first, and texts
// either literal or a reference into the properties (TAU's edf lines and names, Paraver's
// pcf labels). Version 4: texts in columns, derived from the other strings of their
// definition where they contain one, then the properties as pieces referring to the texts
// (definition_texts.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/definitions.hpp"
#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

// Version 4, what mtf writes.
std::vector<uint8_t> encodeDefinitionsSection(const Definitions& defs);
// Version 3 (kept for tests of the reading of old archives).
std::vector<uint8_t> encodeDefinitionsV3(const Definitions& defs);
// `version` 3 or 4. Throws compaction::CodingError (offset within `raw`) on bad data.
void decodeDefinitionsSection(const std::vector<uint8_t>& raw, Definitions& defs, uint32_t version);

// The part versions 2 and 3 share: clock, format, creator, version and properties.
void putDefinitionsHead(std::vector<uint8_t>& out, const Definitions& defs);
void readDefinitionsHead(compaction::ByteReader& r, Definitions& defs);

// A string (varint length, bytes) that ends inside the data. (ByteReader::string bounds
// the length by the bytes left before its varint, so it may read up to 10 bytes past
// the end.)
inline std::string readString(compaction::ByteReader& r) {
  const uint64_t n = r.varint();
  if (n > r.remaining()) throw compaction::CodingError{r.position(), "string runs past the end"};
  const uint8_t* p = r.take(n);
  return std::string(reinterpret_cast<const char*>(p), n);
}

// True if `fields` has exactly the fields its schema implies (repeated group included).
bool fieldCountFits(const KindSchema& s, const std::vector<uint64_t>& fields);

}  // namespace mtf::mtfbin
