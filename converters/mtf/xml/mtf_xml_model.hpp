// MTF XML: the compacted model (compaction/compact_model.hpp) as an XML document that
// follows schema/mtf.xsd. Writing and reading are both streaming over libxml2; the
// model itself is what the compaction stage holds in memory anyway.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "values/columns.hpp"  // kCodingMarker
#include "compaction/compact_model.hpp"

namespace mtf::xml {

inline constexpr char kMtfXmlNamespace[] = "urn:mtf:xml:1";
inline constexpr char kMtfXmlRoot[] = "Scenario";
inline constexpr uint64_t kMtfXmlVersion = 1;
// Names the bytes of ColumnChunk::encoded (values/columns.hpp): column coding 2 (the
// current one), or coding 1 (archives of version 1). The bytes tell the two apart
// themselves; the attribute names them for other readers.
inline constexpr char kValuesEncoding[] = "mtf-columns-2";
inline constexpr char kValuesEncodingV1[] = "mtf-columns-1";
inline const char* valuesEncodingOf(const std::vector<uint8_t>& encoded) {
  const bool marked = !encoded.empty() && encoded[0] == compaction::kCodingMarker;
  return marked ? kValuesEncoding : kValuesEncodingV1;
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
