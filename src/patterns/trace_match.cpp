#include "patterns/trace_match.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>
#include <unordered_map>

#include "patterns/collapse.hpp"

namespace mtf::patterns {
namespace {

// Keeps every location's collapsed sequence, with message ordinals.
class CollapsingSink : public TraceSink {
 public:
  CollapsingSink(SymbolTable& table, const SymbolOptions& options)
      : table_(table), options_(options) {}
  void begin(const Definitions& defs) override {
    extractor_ = std::make_unique<SymbolExtractor>(defs, options_);
    resolution_ = defs.clock.resolution;
  }
  void event(const Event& e) override {
    State& st = states_[e.location];
    const uint64_t index = st.events++;
    const std::optional<CommSymbol> s = extractor_->symbolOf(e);
    if (!s) return;
    uint64_t ordinal = 0;
    if (s->isPointToPoint()) ordinal = st.ordinals[{s->kind == SymbolKind::Send, s->partner}]++;
    st.sorter.push(table_.intern(*s), s->partner, e.kind == EventKind::MpiIrecv, index, e.time,
                   ordinal);
  }
  void end() override {}

  std::map<int64_t, std::pair<LocationId, CollapsedSequence>> byRank() {
    std::map<int64_t, std::pair<LocationId, CollapsedSequence>> out;
    for (auto& [loc, st] : states_) {
      const int64_t rank = extractor_->ranks().worldRank(loc);
      st.sorter.flush();
      if (rank >= 0) out[rank] = {loc, st.collapser.finish()};
    }
    return out;
  }
  uint64_t resolution() const { return resolution_; }

 private:
  struct State {
    uint64_t events = 0;
    TandemCollapser collapser;
    CompletionSorter sorter{collapser};
    std::map<std::pair<bool, int64_t>, uint64_t> ordinals;
  };
  SymbolTable& table_;
  SymbolOptions options_;
  std::unique_ptr<SymbolExtractor> extractor_;
  std::unordered_map<LocationId, State> states_;
  uint64_t resolution_ = 1;
};

RankMatch describe(int64_t rank, LocationId loc, const CollapsedSequence& seq,
                   const WindowMatch& w) {
  RankMatch m;
  m.rank = rank;
  m.location = loc;
  m.start = w.start;
  m.length = w.length;
  m.distance = w.distance;
  m.firstEvent = seq.slots[w.start].firstEvent;
  m.firstTime = seq.slots[w.start].firstTime;
  m.lastEvent = seq.slots[w.start + w.length - 1].lastEvent;
  m.lastTime = seq.slots[w.start + w.length - 1].lastTime;
  for (const TandemRepeat& t : seq.tandems)
    if (t.start == w.start && t.period == w.length) m.repeats = t.copies;
  return m;
}

struct MessageKey {
  int64_t sender, receiver;
  uint64_t ordinal;
  bool operator<(const MessageKey& o) const {
    return std::tie(sender, receiver, ordinal) < std::tie(o.sender, o.receiver, o.ordinal);
  }
};

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';  // control characters in a pattern name carry nothing worth escaping
      continue;
    }
    out += c;
  }
  return out + "\"";
}

size_t findRoot(std::vector<size_t>& parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

namespace {

using Sequences = std::map<int64_t, std::pair<LocationId, CollapsedSequence>>;

// Matches every rank's part; `parent` links (union-find) the matches that hold the two
// ends of one message.
void matchRanks(MatchReport& report, const Sequences& sequences, SymbolTable& table,
                const MatchOptions& options, std::vector<size_t>& parent) {
  std::map<MessageKey, size_t> firstMatchOf;
  for (size_t rank = 0; rank < report.spec.perRank.size(); ++rank) {
    const auto& wanted = report.spec.perRank[rank];
    const auto it = sequences.find(int64_t(rank));
    if (wanted.empty() || it == sequences.end()) continue;
    std::vector<SymbolId> pattern;
    for (const CommSymbol& s : wanted) pattern.push_back(table.intern(s));
    const CollapsedSequence& seq = it->second.second;
    for (const WindowMatch& w : matchWindows(pattern, seq.symbols, options)) {
      const size_t index = report.matches.size();
      report.matches.push_back(describe(int64_t(rank), it->second.first, seq, w));
      parent.push_back(index);
      for (size_t j = w.start; j < w.start + w.length; ++j) {
        const CommSymbol& s = table.symbol(seq.symbols[j]);
        if (!s.isPointToPoint()) continue;
        const MessageKey key = s.kind == SymbolKind::Send
                                   ? MessageKey{int64_t(rank), s.partner, seq.slots[j].ordinal}
                                   : MessageKey{s.partner, int64_t(rank), seq.slots[j].ordinal};
        const auto [k, inserted] = firstMatchOf.try_emplace(key, index);
        if (!inserted) parent[findRoot(parent, index)] = findRoot(parent, k->second);
      }
    }
  }
}

// The linked matches as communication occurrences; keeps those within the distance bound.
void groupOccurrences(MatchReport& report, std::vector<size_t>& parent) {
  std::map<size_t, CommOccurrence> groups;
  for (size_t i = 0; i < report.matches.size(); ++i) {
    CommOccurrence& occ = groups[findRoot(parent, i)];
    const RankMatch& m = report.matches[i];
    occ.firstTime = occ.matches.empty() ? m.firstTime : std::min(occ.firstTime, m.firstTime);
    occ.lastTime = std::max(occ.lastTime, m.lastTime);
    occ.matches.push_back(i);
    occ.ranks.push_back(m.rank);
    occ.totalDistance += m.distance;
  }
  size_t involved = 0;
  for (const auto& r : report.spec.perRank) involved += r.empty() ? 0 : 1;
  for (auto& [root, occ] : groups) {
    std::sort(occ.ranks.begin(), occ.ranks.end());
    occ.ranks.erase(std::unique(occ.ranks.begin(), occ.ranks.end()), occ.ranks.end());
    occ.complete = occ.ranks.size() == involved;
    if (occ.totalDistance <= report.maxDistance * occ.ranks.size())
      report.occurrences.push_back(std::move(occ));
  }
  std::sort(report.occurrences.begin(), report.occurrences.end(),
            [](const auto& a, const auto& b) { return a.firstTime < b.firstTime; });
}

}  // namespace

MatchReport matchTrace(TraceSource& source, const std::function<PatternSpec(size_t)>& specFor,
                       const MatchOptions& options, const SymbolOptions& symbolOptions) {
  MatchReport report;
  report.maxDistance = options.maxDistance;
  report.spec = specFor(RankMap(source.definitions()).worldSize());
  SymbolTable table;
  CollapsingSink sink(table, symbolOptions);
  source.read(sink);
  report.resolution = sink.resolution();
  const Sequences sequences = sink.byRank();
  std::vector<size_t> parent;
  matchRanks(report, sequences, table, options, parent);
  groupOccurrences(report, parent);
  return report;
}

std::string matchText(const MatchReport& r) {
  std::ostringstream o;
  size_t complete = 0;
  for (const auto& occ : r.occurrences) complete += occ.complete ? 1 : 0;
  o << "Pattern " << r.spec.name;
  for (const auto& [k, v] : r.spec.parameters) o << " " << k << "=" << v;
  o << ", k = " << r.maxDistance << ": " << r.matches.size() << " rank matches, "
    << r.occurrences.size() << " communication occurrences (" << complete << " with every rank)\n";
  for (size_t i = 0; i < r.occurrences.size() && i < 50; ++i) {
    const CommOccurrence& occ = r.occurrences[i];
    o << "  occurrence " << i << ": ranks " << occ.ranks.size() << (occ.complete ? " (all)" : "")
      << ", distance " << occ.totalDistance << ", ticks " << occ.firstTime << ".." << occ.lastTime
      << "\n";
    for (size_t j = 0; j < occ.matches.size() && j < 8; ++j) {
      const RankMatch& m = r.matches[occ.matches[j]];
      o << "    rank " << m.rank << ": events " << m.firstEvent << ".." << m.lastEvent
        << ", distance " << m.distance << (m.repeats > 1 ? ", repeated " : "")
        << (m.repeats > 1 ? std::to_string(m.repeats) + " times" : "") << "\n";
    }
  }
  if (r.occurrences.size() > 50) o << "  ... " << r.occurrences.size() - 50 << " more\n";
  return o.str();
}

std::string matchJson(const MatchReport& r) {
  std::ostringstream o;
  o << "{\"pattern\":" << jsonString(r.spec.name) << ",\"parameters\":{";
  bool first = true;
  for (const auto& [k, v] : r.spec.parameters) {
    o << (first ? "" : ",") << jsonString(k) << ":" << jsonString(v);
    first = false;
  }
  o << "},\"max_distance\":" << r.maxDistance << ",\"resolution\":" << r.resolution
    << ",\"matches\":[";
  for (size_t i = 0; i < r.matches.size(); ++i) {
    const RankMatch& m = r.matches[i];
    o << (i ? "," : "") << "{\"rank\":" << m.rank << ",\"location\":" << m.location
      << ",\"distance\":" << m.distance << ",\"repeats\":" << m.repeats
      << ",\"first_event\":" << m.firstEvent << ",\"last_event\":" << m.lastEvent
      << ",\"first_time\":" << m.firstTime << ",\"last_time\":" << m.lastTime << "}";
  }
  o << "],\"occurrences\":[";
  for (size_t i = 0; i < r.occurrences.size(); ++i) {
    const CommOccurrence& occ = r.occurrences[i];
    o << (i ? "," : "") << "{\"matches\":[";
    for (size_t j = 0; j < occ.matches.size(); ++j) o << (j ? "," : "") << occ.matches[j];
    o << "],\"ranks\":" << occ.ranks.size() << ",\"complete\":" << (occ.complete ? "true" : "false")
      << ",\"distance\":" << occ.totalDistance << ",\"first_time\":" << occ.firstTime
      << ",\"last_time\":" << occ.lastTime << "}";
  }
  o << "]}\n";
  return o.str();
}

}  // namespace mtf::patterns
