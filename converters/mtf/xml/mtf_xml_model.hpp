// MTF XML: the compacted model (compaction/compact_model.hpp) as an XML document that
// follows schema/mtf.xsd. Writing and reading are both streaming over libxml2; the
// model itself is what the compaction stage holds in memory anyway.
#pragma once

#include <filesystem>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compaction/compact_model.hpp"
#include "values/columns.hpp"  // kCodingMarker

namespace mtf::xml {

inline constexpr char kMtfXmlNamespace[] = "urn:mtf:xml:1";
inline constexpr char kMtfXmlRoot[] = "Scenario";
inline constexpr uint64_t kMtfXmlVersion = 1;
// Names the bytes of ColumnChunk::encoded (values/columns.hpp): column coding 7 or 5 (both
// written now: 7 range coded, 5 zstd), 6, 4, 3, 2 or 1 (archives of versions 8 and 4 to 1). The
// bytes tell them apart themselves (marker and coding byte); the attribute names them for other
// readers. XML has no column dictionary: a coding 3 to 5 chunk in XML never needs one (flags 0).
inline constexpr char kValuesEncodingV7[] = "mtf-columns-7";
inline constexpr char kValuesEncodingV6[] = "mtf-columns-6";
inline constexpr char kValuesEncoding[] = "mtf-columns-5";
inline constexpr char kValuesEncodingV4[] = "mtf-columns-4";
inline constexpr char kValuesEncodingV3[] = "mtf-columns-3";
inline constexpr char kValuesEncodingV2[] = "mtf-columns-2";
inline constexpr char kValuesEncodingV1[] = "mtf-columns-1";
// Every encoding a reader accepts, indexed by column coding minus one (the next coding
// is one more entry here).
inline constexpr const char* kValuesEncodings[] = {
    kValuesEncodingV1, kValuesEncodingV2, kValuesEncodingV3, kValuesEncodingV4,
    kValuesEncoding,   kValuesEncodingV6, kValuesEncodingV7};
inline bool isKnownValuesEncoding(std::string_view encoding) {
  for (const char* known : kValuesEncodings)
    if (encoding == known) return true;
  return false;
}
inline const char* valuesEncodingOf(const std::vector<uint8_t>& encoded) {
  if (encoded.empty() || encoded[0] != values::kCodingMarker) return kValuesEncodingV1;
  const unsigned coding = encoded.size() > 1 ? encoded[1] : 0;
  constexpr unsigned newest = std::size(kValuesEncodings);
  // Coding bytes 0, 1 or above the newest cannot pass the chunk decoder; name them newest.
  return coding >= 2 && coding <= newest ? kValuesEncodings[coding - 1]
                                         : kValuesEncodings[newest - 1];
}
// True if the chunk is compressed with the archive's column dictionary (flags of codings 3
// to 5; codings 6 and 7 have no flags byte and no dictionary).
inline bool needsColumnDictionary(const std::vector<uint8_t>& encoded) {
  return encoded.size() > 2 && encoded[0] == values::kCodingMarker && encoded[1] >= 3 &&
         encoded[1] < values::kFirstRangedCoding && (encoded[2] & 1) != 0;
}
// A trace fact (format, creator, version) that is not plain XML text is stored as the
// property "mtf-xml:<name>" (base64) instead of an attribute; the reader moves it back.
inline constexpr char kTraceFactProperty[] = "mtf-xml:";
// Deepest element nesting a reader accepts (Loop nests are the only deep part).
inline constexpr int kMaxDepth = 200;

// A readable element computed by an analysis (e.g. TracePattern, PatternOccurrence of
// patterns/analysis.hpp), written as is after the processes; the reader skips it.
struct ViewElement {
  std::string element;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<ViewElement> children;
};

// Writes `model` to `path`. With `structureOnly` the value columns are left out: the
// file shows the structure (small, readable) but cannot give the events back.
// `views` must be in the order schema/mtf.xsd gives Trace's children after Process.
void writeModelXml(const compaction::CompactModel& model, const std::filesystem::path& path,
                   bool structureOnly, const std::vector<ViewElement>& views = {});

struct XmlModel {
  compaction::CompactModel model;
  bool structureOnly = false;
};
// Reads a file written by writeModelXml. Throws mtf::InputError naming the line on
// malformed XML, a DOCTYPE, an unknown element or an inconsistent model.
XmlModel readModelXml(const std::filesystem::path& path);

// True if the file starts like MTF XML (root element Scenario in the MTF namespace).
bool looksLikeMtfXml(const std::filesystem::path& path);

}  // namespace mtf::xml
