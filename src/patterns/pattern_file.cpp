// The pattern file format (documented in library.hpp).
#include <charconv>
#include <fstream>
#include <sstream>

#include "patterns/library.hpp"
#include "util/error.hpp"

namespace mtf::patterns {
namespace {

// Bounds on what a pattern file may ask for (found by fuzzing: "processes 10^12" or
// "rank *" over millions of processes allocated without limit). 2^20 processes is beyond
// any trace the tools are used on; 2^20 events (16 MB of symbols) parse in well under a
// second (fuzzing showed 4M events over 1M ranks taking 10 s).
constexpr int64_t kMaxPatternProcesses = int64_t(1) << 20;
constexpr size_t kMaxPatternEvents = size_t(1) << 20;

struct Parser {
  const std::string& origin;
  size_t processes;
  uint64_t line = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(origin, placeLine(line), what);
  }

  int64_t number(std::string_view text) const {
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v < 0)
      fail("'" + std::string(text) + "' is not a non-negative number");
    return v;
  }

  std::vector<size_t> ranks(std::string_view list) const {
    std::vector<size_t> out;
    if (list == "*") {
      for (size_t r = 0; r < processes; ++r) out.push_back(r);
      return out;
    }
    while (!list.empty()) {
      const size_t comma = list.find(',');
      const std::string_view item = list.substr(0, comma);
      const size_t dash = item.find('-');
      const int64_t lo = number(item.substr(0, dash));
      const int64_t hi = dash == std::string_view::npos ? lo : number(item.substr(dash + 1));
      if (hi < lo || size_t(hi) >= processes)
        fail("rank range '" + std::string(item) + "' is outside 0.." +
             std::to_string(processes - 1));
      if (out.size() + size_t(hi - lo + 1) > kMaxPatternEvents)
        fail("the rank list names more than " + std::to_string(kMaxPatternEvents) + " ranks");
      for (int64_t r = lo; r <= hi; ++r) out.push_back(size_t(r));
      list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return out;
  }

  // One event token of a rank line, parsed once for all the line's ranks: either a fixed
  // symbol or a partner relative to the rank ("S+1", "R-2").
  struct EventToken {
    CommSymbol symbol;
    int64_t offset = 0;  // relative partners: added to the rank, modulo the processes
    bool relative = false;
  };

  EventToken token(std::string_view text) const {
    if (text.size() >= 3 && (text[0] == 'S' || text[0] == 'R') &&
        (text[1] == '+' || text[1] == '-')) {
      const int64_t d = number(text.substr(2)) % int64_t(processes);
      return {
          {text[0] == 'S' ? SymbolKind::Send : SymbolKind::Recv, 0}, text[1] == '+' ? d : -d, true};
    }
    const std::optional<CommSymbol> s = parseSymbol(text);
    if (!s) fail("'" + std::string(text) + "' is not an event (S3, R-1, Allreduce, Bcast@0)");
    if (s->isPointToPoint() && size_t(s->partner) >= processes)
      fail("partner " + std::to_string(s->partner) + " is not a rank below " +
           std::to_string(processes));
    return {*s};
  }

  CommSymbol event(const EventToken& t, size_t rank) const {
    if (!t.relative) return t.symbol;
    const int64_t p = int64_t(processes);
    return {t.symbol.kind, ((int64_t(rank) + t.offset) % p + p) % p};
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Each "rank LIST: EVENT..." line, once the number of processes is known.
void applyRankLines(PatternSpec& spec, Parser& parser,
                    const std::vector<std::pair<uint64_t, std::string>>& rankLines) {
  spec.perRank.resize(parser.processes);
  spec.parameters["processes"] = std::to_string(parser.processes);
  size_t total = 0;  // events of every rank so far
  for (const auto& [lineNo, body] : rankLines) {
    parser.line = lineNo;
    const size_t colon = body.find(':');
    if (colon == std::string::npos) parser.fail("expected 'rank LIST: EVENT...'");
    const std::vector<size_t> ranks = parser.ranks(trim(std::string_view(body).substr(0, colon)));
    std::istringstream events(body.substr(colon + 1));
    std::vector<std::string> words;
    for (std::string w; events >> w;) words.push_back(w);
    total += ranks.size() * words.size();
    if (total > kMaxPatternEvents)
      parser.fail("the pattern holds more than " + std::to_string(kMaxPatternEvents) + " events");
    if (ranks.empty()) continue;
    std::vector<Parser::EventToken> tokens;
    for (const std::string& w : words) tokens.push_back(parser.token(w));
    for (size_t r : ranks)
      for (const Parser::EventToken& t : tokens) spec.perRank[r].push_back(parser.event(t, r));
  }
}

}  // namespace

PatternSpec parsePatternText(std::string_view text, size_t processes, const std::string& origin) {
  PatternSpec spec;
  spec.name = "pattern";
  const size_t traceProcesses = processes;  // 0: unknown
  Parser parser{origin, processes};
  std::vector<std::pair<uint64_t, std::string>> rankLines;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    ++parser.line;
    std::string_view l = raw;
    l = trim(l.substr(0, l.find('#')));
    if (l.empty()) continue;
    const size_t space = l.find_first_of(" \t");
    const std::string_view keyword = l.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? "" : trim(l.substr(space));
    if (keyword == "name") {
      spec.name = std::string(rest);
    } else if (keyword == "processes") {
      const int64_t processes = parser.number(rest);
      if (processes < 1) parser.fail("processes must be at least 1");
      if (processes > kMaxPatternProcesses)
        parser.fail("processes " + std::to_string(processes) + " is above the limit of " +
                    std::to_string(kMaxPatternProcesses));
      // Ranks the trace does not have can never match; refusing them also bounds the
      // expansion of "rank *" by the trace's real size.
      if (traceProcesses > 0 && size_t(processes) > traceProcesses)
        parser.fail("the pattern is written for " + std::to_string(processes) +
                    " processes, the trace has " + std::to_string(traceProcesses));
      parser.processes = size_t(processes);
    } else if (keyword == "rank") {
      rankLines.emplace_back(parser.line, std::string(rest));
    } else {
      parser.fail("unknown statement '" + std::string(keyword) + "' (name, processes, rank)");
    }
  }
  if (parser.processes == 0) parser.fail("the number of processes is unknown (add 'processes P')");
  applyRankLines(spec, parser, rankLines);
  parser.line = 0;
  size_t events = 0;
  for (const auto& r : spec.perRank) events += r.size();
  if (events == 0) throw InputError(origin, "", "the pattern has no events");
  return spec;
}

PatternSpec readPatternFile(const std::filesystem::path& path, size_t processes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "cannot open the pattern file");
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (16u << 20))
    throw InputError(path.string(), "", "pattern file too large");
  return parsePatternText(text.str(), processes, path.string());
}

}  // namespace mtf::patterns
