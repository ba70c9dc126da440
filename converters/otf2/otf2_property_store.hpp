// Where the writer keeps the trace's properties (TraceInfo::properties): in the anchor file
// while they fit, in the global definitions otherwise.
//
// OTF2 3.0 writes the whole anchor file through one buffer of OTF2_CHUNK_SIZE_MIN bytes
// (256 KiB; OTF2_AnchorFile_Save in src/OTF2_AnchorFile.c): a property that does not fit
// fails OTF2_Buffer_GuaranteeWrite, the library flushes what it has written so far and
// OTF2_Archive_Close still returns OTF2_SUCCESS. The anchor left behind declares more
// properties than it holds, and OTF2's reader refuses it ("Malformed anchor file:
// expecting string"). A TAU trace keeps each node's .edf text as a property (hundreds of
// KB for a PETSc application), so the limit is real.
//
// Properties that would not fit go into String definitions added after every other
// definition: for each property a descriptor string "<encoded key> <pieces> <bytes>"
// followed by its value in pieces of at most kPropertyPieceBytes. The anchor property
// kStoredPropertiesName = "<first string id> <number of strings>" points at them. The reader
// puts those values back into the properties and drops the strings, so the definitions
// round-trip unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/definitions.hpp"

namespace mtf::otf2 {

inline constexpr std::string_view kStoredPropertiesName = "MTF_DEFINITIONS::PROPERTIES";
// What the anchor's properties may take at most (names, values and their NULs, with the
// creator): half of OTF2's 256 KiB anchor buffer, the rest left for its fixed fields.
inline constexpr uint64_t kAnchorPropertyBudget = 128 * 1024;
inline constexpr uint64_t kPropertyPieceBytes = 64 * 1024;

struct PropertyPlan {
  // (OTF2 property name, value) to set on the archive, in this order.
  std::vector<std::pair<std::string, std::string>> anchor;
  // String definitions to write after all others (empty if everything fits the anchor).
  std::vector<DefRecord> strings;
};

// Places every property of `info`: other namespaces' properties (key "otf2:NAME") first, then
// mtf's own, each in key order, into the anchor while the budget lasts; the rest (and
// empty values, which OTF2 treats as "remove the property") into String definitions
// numbered from `firstFreeString`.
PropertyPlan planProperties(const TraceInfo& info, uint64_t firstFreeString);

// The first String id none of `records` uses.
uint64_t nextFreeString(const std::vector<DefRecord>& records);

// Reader side: the strings kStoredPropertiesName points at (its anchor value `pointer`)
// back into defs.info.properties, and out of the definitions. Throws InputError naming
// `anchor` and the string if they are missing or malformed.
void restoreStoredProperties(Definitions& defs, std::string_view pointer,
                             const std::string& anchor);

}  // namespace mtf::otf2
