// Text and JSON forms of a PatternReport (see analysis.hpp).
#include <algorithm>
#include <sstream>

#include "patterns/analysis.hpp"
#include "patterns/groups.hpp"

namespace mtf::patterns {
namespace {

// "12.000345678": ticks as seconds, exact (integer arithmetic).
std::string seconds(Tick ticks, uint64_t resolution) {
  if (resolution == 0) return std::to_string(ticks);
  std::string frac = std::to_string(ticks % resolution);
  const size_t digits = std::to_string(resolution - 1).size();
  if (frac.size() < digits) frac.insert(0, digits - frac.size(), '0');
  return std::to_string(ticks / resolution) + "." + frac;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += "\\u00";
      out += "0123456789abcdef"[(c >> 4) & 0xF];
      out += "0123456789abcdef"[c & 0xF];
      continue;
    }
    out += c;
  }
  return out + "\"";
}

template <typename T, typename F>
std::string array(const std::vector<T>& items, F&& each, size_t limit = ~size_t{0}) {
  std::string out = "[";
  for (size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? "," : "") + each(items[i]);
  return out + "]";
}

std::string numbers(const std::vector<uint64_t>& v, size_t limit) {
  return array(
      v, [](uint64_t x) { return std::to_string(x); }, limit);
}

std::string symbolNames(const PatternReport& r, const std::vector<SymbolId>& s) {
  return array(s, [&](SymbolId id) { return quoted(r.symbols.name(id)); });
}

std::string processPatternJson(const PatternReport& r, const ProcessPattern& p) {
  std::ostringstream o;
  o << "{\"symbols\":" << symbolNames(r, p.symbols) << ",\"frequency\":" << p.frequency
    << ",\"events_covered\":" << p.eventsCovered << ",\"tandem_copies\":" << p.tandemCopies
    << ",\"first_time\":" << p.firstTime << ",\"last_time\":" << p.lastTime
    << ",\"positions\":" << numbers(p.positions, 32) << "}";
  return o.str();
}

std::string locationJson(const PatternReport& r, const LocationPatterns& l) {
  std::ostringstream o;
  o << "{\"location\":" << l.location << ",\"rank\":" << l.rank << ",\"events\":" << l.events
    << ",\"comm_events\":" << l.commEvents << ",\"collapsed_length\":" << l.collapsedLength
    << ",\"pattern_count\":" << l.patterns.size() << ",\"top_patterns\":"
    << array(
           l.patterns, [&](const ProcessPattern& p) { return processPatternJson(r, p); }, 5)
    << "}";
  return o.str();
}

std::string commPatternJson(const PatternReport& r, const CommPattern& cp, size_t index) {
  std::ostringstream o;
  o << "{\"index\":" << index << ",\"frequency\":" << cp.frequency
    << ",\"events_covered\":" << cp.eventsCovered
    << ",\"collective_only\":" << (cp.collectiveOnly ? "true" : "false")
    << ",\"first_time\":" << cp.firstTime << ",\"last_time\":" << cp.lastTime
    << ",\"processes\":" << array(cp.ranks, [](int64_t x) { return std::to_string(x); })
    << ",\"edges\":"
    << array(cp.edges,
             [](const auto& e) {
               return "[" + std::to_string(e.first) + "," + std::to_string(e.second) + "]";
             })
    << ",\"members\":"
    << array(cp.members,
             [&](const PatternRef& m) {
               const LocationPatterns& l = r.locations[m.location];
               const ProcessPattern& p = l.patterns[m.pattern];
               return "{\"rank\":" + std::to_string(l.rank) +
                      ",\"location\":" + std::to_string(l.location) +
                      ",\"symbols\":" + symbolNames(r, p.symbols) +
                      ",\"frequency\":" + std::to_string(p.frequency) +
                      ",\"positions\":" + numbers(p.positions, 16) + "}";
             })
    << "}";
  return o.str();
}

std::string knownJson(const PatternReport& r, const KnownPatternUse& u) {
  std::ostringstream o;
  o << "{\"pattern\":" << quoted(u.pattern) << ",\"parameters\":{";
  bool first = true;
  for (const auto& [k, v] : u.parameters) {
    o << (first ? "" : ",") << quoted(k) << ":" << quoted(v);
    first = false;
  }
  o << "},\"occurrences\":" << u.occurrences << ",\"events_covered\":" << u.eventsCovered
    << ",\"processes\":" << array(u.ranks, [](int64_t x) { return std::to_string(x); })
    << ",\"first_time\":" << u.firstTime << ",\"last_time\":" << u.lastTime
    << ",\"first_seconds\":" << quoted(seconds(u.firstTime, r.resolution))
    << ",\"last_seconds\":" << quoted(seconds(u.lastTime, r.resolution))
    << ",\"communication_patterns\":"
    << array(u.commPatterns, [](size_t i) { return std::to_string(i); })
    << ",\"positions\":{\"rank\":" << u.positionsRank
    << ",\"first_events\":" << numbers(u.positions, 32) << "}}";
  return o.str();
}

std::string edgesJson(const std::vector<std::pair<int64_t, int64_t>>& edges) {
  return array(edges, [](const auto& e) {
    return "[" + std::to_string(e.first) + "," + std::to_string(e.second) + "]";
  });
}

std::string nearMissJson(const NearMiss& m) {
  std::ostringstream o;
  o << "{\"pattern\":" << quoted(m.pattern) << ",\"parameters\":{";
  bool first = true;
  for (const auto& [k, v] : m.parameters) {
    o << (first ? "" : ",") << quoted(k) << ":" << quoted(v);
    first = false;
  }
  o << "},\"communication_pattern\":" << m.commPattern
    << ",\"processes\":" << array(m.ranks, [](int64_t x) { return std::to_string(x); })
    << ",\"missing_edges\":" << edgesJson(m.missing) << ",\"extra_edges\":" << edgesJson(m.extra)
    << ",\"ranks_missing_partner\":"
    << array(m.ranksMissingPartner, [](int64_t x) { return std::to_string(x); })
    << ",\"text\":" << quoted(m.text) << "}";
  return o.str();
}

std::string parametersText(const std::map<std::string, std::string>& params) {
  std::string out;
  for (const auto& [k, v] : params) out += " " + k + "=" + v;
  return out;
}

}  // namespace

std::string reportJson(const PatternReport& r, size_t top) {
  std::ostringstream o;
  size_t index = 0;
  o << "{\"processes\":" << r.worldSize << ",\"resolution\":" << r.resolution
    << ",\"known_patterns\":"
    << array(r.known, [&](const KnownPatternUse& u) { return knownJson(r, u); })
    << ",\"near_misses\":" << array(r.nearMisses, nearMissJson)
    << ",\"communication_pattern_count\":" << r.commPatterns.size()
    << ",\"communication_patterns\":"
    << array(
           r.commPatterns, [&](const CommPattern& cp) { return commPatternJson(r, cp, index++); },
           top)
    << ",\"locations\":"
    << array(r.locations, [&](const LocationPatterns& l) { return locationJson(r, l); }) << "}\n";
  return o.str();
}

std::string reportText(const PatternReport& r, size_t top) {
  std::ostringstream o;
  o << "Known communication patterns (" << r.worldSize << " processes):\n";
  if (r.known.empty()) o << "  none recognized\n";
  for (const KnownPatternUse& u : r.known) {
    o << "  " << u.pattern << parametersText(u.parameters) << "\n    occurrences " << u.occurrences
      << ", events " << u.eventsCovered << ", ranks " << ranksText(u.ranks) << ", time "
      << seconds(u.firstTime, r.resolution) << " s to " << seconds(u.lastTime, r.resolution)
      << " s\n";
    if (!u.positions.empty()) {
      o << "    first events on rank " << u.positionsRank << ":";
      for (size_t i = 0; i < u.positions.size() && i < 8; ++i) o << " " << u.positions[i];
      o << (u.positions.size() > 8 ? " ..." : "") << "\n";
    }
  }
  for (const NearMiss& m : r.nearMisses) o << "  " << m.text << "\n";
  const size_t shown = std::min(top, r.commPatterns.size());
  o << "\nCommunication patterns (" << shown << " of " << r.commPatterns.size() << "):\n";
  for (size_t i = 0; i < shown; ++i) {
    const CommPattern& cp = r.commPatterns[i];
    o << "  #" << i << (cp.collectiveOnly ? " collective" : "") << ": frequency " << cp.frequency
      << ", events " << cp.eventsCovered << ", ranks " << ranksText(cp.ranks) << ", time "
      << seconds(cp.firstTime, r.resolution) << " s to " << seconds(cp.lastTime, r.resolution)
      << " s\n";
    for (size_t m = 0; m < cp.members.size() && m < 16; ++m) {
      const LocationPatterns& l = r.locations[cp.members[m].location];
      const ProcessPattern& p = l.patterns[cp.members[m].pattern];
      o << "      P" << l.rank << " x" << p.frequency << ":";
      for (size_t s = 0; s < p.symbols.size() && s < 24; ++s)
        o << " " << r.symbols.name(p.symbols[s]);
      o << (p.symbols.size() > 24 ? " ..." : "") << "\n";
    }
    if (cp.members.size() > 16) o << "      ... " << cp.members.size() - 16 << " more\n";
  }
  return o.str();
}

}  // namespace mtf::patterns
