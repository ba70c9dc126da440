// The whole analysis of `mtf patterns`: per-process patterns, communication patterns,
// known patterns; and its output forms (text, JSON, and the MTF annotation blob).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace_stream.hpp"
#include "patterns/classify.hpp"
#include "patterns/comm.hpp"
#include "patterns/detect.hpp"
#include "patterns/near_miss.hpp"

namespace mtf::patterns {

struct PatternReport {
  size_t worldSize = 0;
  uint64_t resolution = 1;
  SymbolTable symbols;
  std::vector<LocationPatterns> locations;
  std::vector<CommPattern> commPatterns;  // ranked, most important first
  std::vector<KnownPatternUse> known;
  std::vector<NearMiss> nearMisses;  // why repeated exchanges are not named (near_miss.hpp)
};

// Reads `source` once (streaming) and analyses it.
PatternReport analyzeTrace(TraceSource& source, const DetectOptions& options = {});
// The rest of the analysis once a detector has seen every event.
PatternReport analyzeDetected(const PatternDetector& detector);

// Output; `top` limits the communication patterns listed (known patterns are all listed).
std::string reportText(const PatternReport& r, size_t top);
std::string reportJson(const PatternReport& r, size_t top);

// The annotation stored in MTF archives (WriteOptions::patterns) under the name
// kPatternsAnnotation: the magic "MTFPAT", a version byte (1), then the JSON of
// reportJson(r, top) in UTF-8. The JSON keys are stable (snake_case); the version changes
// if they ever change incompatibly.
inline constexpr const char* kPatternsAnnotation = "patterns";
std::vector<uint8_t> annotationBlob(const PatternReport& r, size_t top = 20);
// The JSON text of a blob; throws InputError("annotation patterns", ...) if it is not one.
std::string jsonOfAnnotationBlob(const std::vector<uint8_t>& blob);

// The same results as MTF XML elements (schema/mtf.xsd TracePattern and
// PatternOccurrence): element name plus attributes in order, ready for a writer.
struct PatternElement {
  std::string element;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<PatternElement> children;  // Event children of a TracePattern
};
std::vector<PatternElement> patternElements(const PatternReport& r, size_t top = 20);

}  // namespace mtf::patterns
