#include "patterns/analysis.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace mtf::patterns {

PatternReport analyzeDetected(const PatternDetector& detector) {
  PatternReport r;
  r.worldSize = detector.worldSize();
  r.resolution = detector.resolution();
  r.symbols = detector.symbols();
  r.locations = detector.locations();
  r.commPatterns = assembleCommPatterns(r.locations, r.symbols);
  r.known = classify(r.commPatterns, r.locations, r.symbols, r.worldSize);
  r.nearMisses = nearMisses(r.commPatterns, r.known, r.worldSize);
  return r;
}

PatternReport analyzeTrace(TraceSource& source, const DetectOptions& options) {
  PatternDetector detector(options);
  source.read(detector);
  return analyzeDetected(detector);
}

std::vector<uint8_t> annotationBlob(const PatternReport& r, size_t top) {
  const std::string json = reportJson(r, top);
  static const char header[] = {'M', 'T', 'F', 'P', 'A', 'T', 1};
  std::vector<uint8_t> blob(sizeof header + json.size());
  std::copy(std::begin(header), std::end(header), blob.begin());
  std::copy(json.begin(), json.end(), blob.begin() + sizeof header);
  return blob;
}

std::string jsonOfAnnotationBlob(const std::vector<uint8_t>& blob) {
  static const uint8_t magic[] = {'M', 'T', 'F', 'P', 'A', 'T'};
  if (blob.size() < 7 || !std::equal(std::begin(magic), std::end(magic), blob.begin()))
    throw InputError("annotation patterns", placeByte(0), "not a patterns annotation");
  if (blob[6] != 1)
    throw InputError("annotation patterns", placeByte(6),
                     "unknown patterns annotation version " + std::to_string(blob[6]));
  return std::string(blob.begin() + 7, blob.end());
}

std::vector<PatternElement> patternElements(const PatternReport& r, size_t top) {
  // The schema lists every TracePattern before the PatternOccurrences.
  std::vector<PatternElement> out, occurrences;
  constexpr size_t kOccurrencesPerMember = 100;  // the readable view; JSON has the rest
  const size_t count = std::min(top, r.commPatterns.size());
  for (size_t i = 0; i < count; ++i) {
    const CommPattern& cp = r.commPatterns[i];
    PatternElement tp{"TracePattern",
                      {{"id", "t" + std::to_string(i)},
                       {"name", "communication pattern " + std::to_string(i + 1)},
                       {"processes", std::to_string(cp.ranks.size())}},
                      {}};
    for (const PatternRef& m : cp.members) {
      const LocationPatterns& loc = r.locations[m.location];
      const ProcessPattern& p = loc.patterns[m.pattern];
      // Event children follow schema/mtf.xsd LoopEvent: symbol id, event kind, label.
      for (SymbolId s : p.symbols) {
        const CommSymbol& cs = r.symbols.symbol(s);
        const char* kind = cs.kind == SymbolKind::Send   ? "MpiSend"
                           : cs.kind == SymbolKind::Recv ? "MpiRecv"
                                                         : "MpiCollectiveEnd";
        tp.children.push_back(
            {"Event",
             {{"symbol", std::to_string(s)},
              {"kind", kind},
              {"label", "P" + std::to_string(loc.rank) + ":" + r.symbols.name(s)}},
             {}});
      }
      for (size_t k = 0; k < std::min(p.positions.size(), kOccurrencesPerMember); ++k)
        occurrences.push_back({"PatternOccurrence",
                               {{"pattern", "t" + std::to_string(i)},
                                {"process", std::to_string(loc.location)},
                                {"firstEvent", std::to_string(p.positions[k])},
                                {"events", std::to_string(p.symbols.size())}},
                               {}});
    }
    out.push_back(std::move(tp));
  }
  out.insert(out.end(), occurrences.begin(), occurrences.end());
  return out;
}

}  // namespace mtf::patterns
