// mtf convert's selection options (issue 31: --ranks, --locations, --regions,
// --exclude-regions --region-contents, --kinds) on every real trace, into every writable
// format. What the output must hold is counted here, independently of mtf's filter, from
// `mtf dump` of the input; the output is read back (`mtf dump`, mtf's readers being as
// strict as the formats' own tools), OTF2 also by otf2-print, Chrome by a JSON parser;
// calls must stay balanced (`mtf info --json`) and message losses must be reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/run_command.hpp"
#include "data/real_traces.hpp"

namespace mtf::test {
namespace {

using Counts = std::map<std::string, uint64_t>;

struct DumpEvent {
  uint64_t location = 0;
  std::string kind, region;  // region: the name an Enter or Leave names
  uint64_t weight = 1;       // a Metric counts once per value
};

// The input as `mtf dump` shows it: its events and what the selection needs to know.
struct Dumped {
  std::vector<DumpEvent> events;
  std::vector<uint64_t> locations;       // in definition order
  std::map<uint64_t, uint64_t> groupOf;  // location -> location group
  std::vector<uint64_t> world;           // MPI COMM_LOCATIONS members (rank order)
};

uint64_t fieldValue(const std::string& line, const std::string& name) {
  const size_t at = line.find(" " + name + "=");
  return at == std::string::npos ? 0 : std::stoull(line.substr(at + name.size() + 2));
}

void parseLine(const std::string& line, Dumped& d) {
  std::istringstream words(line);
  std::string first, time, kind;
  words >> first;
  if (first == "Location") {
    const uint64_t id = fieldValue(line, "self");
    d.locations.push_back(id);
    d.groupOf[id] = fieldValue(line, "group");
  } else if (first == "Group" && line.find(" type=4 paradigm=4 ") != std::string::npos) {
    for (size_t at = line.find(" member="); at != std::string::npos;
         at = line.find(" member=", at + 1))
      d.world.push_back(std::stoull(line.substr(at + 8)));
  } else if (first.size() > 1 && first[0] == 'L' && std::isdigit(uint8_t(first[1])) &&
             words >> time >> kind) {
    DumpEvent e{std::stoull(first.substr(1)), kind, "", 1};
    const size_t quote = line.find("region=");
    if ((kind == "Enter" || kind == "Leave") && quote != std::string::npos) {
      const size_t open = line.find("(\"", quote), close = line.find("\")", quote);
      if (open != std::string::npos && close != std::string::npos)
        e.region = line.substr(open + 2, close - open - 2);
    }
    if (kind == "Metric") e.weight = fieldValue(line, "count");
    d.events.push_back(std::move(e));
  }
}

Dumped dumpOf(const std::string& path, bool eventsOnly = false) {
  const auto r = run(
      mtfProgram() + " -q dump " + (eventsOnly ? "--events-only " : "") + "'" + path + "'", false);
  EXPECT_EQ(r.status, 0) << "mtf dump " << path;
  Dumped d;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) parseLine(line, d);
  return d;
}

const Dumped& inputDump(const std::string& trace) {
  static std::map<std::string, Dumped> cache;
  auto it = cache.find(trace);
  if (it == cache.end()) it = cache.emplace(trace, dumpOf(trace)).first;
  return it->second;
}

// The classes a format keeps (as tests/cli/cut_counts.hpp's, which cross_format_test.cpp uses):
// point-to-point events count as one class, since a selection loses them in pairs or halves.
std::string classOf(const std::string& kind) {
  if (kind == "MpiSend" || kind == "MpiIsend" || kind == "MpiRecv" || kind == "MpiIrecv")
    return "messages";
  return kind == "Metric" ? "metric values" : kind;
}

std::set<std::string> classesHeldBy(const std::string& format) {
  std::set<std::string> held = {"Enter", "Leave", "messages", "metric values"};
  if (format == "paraver") held.insert({"MpiCollectiveBegin", "MpiCollectiveEnd"});
  if (format == "tau" || format == "paraver") return held;
  return {};  // every kind
}

Counts byClass(const std::vector<DumpEvent>& events, const std::set<std::string>& held) {
  Counts counts;
  for (const DumpEvent& e : events) {
    const std::string c = classOf(e.kind);
    if (held.empty() || held.count(c)) counts[c] += e.weight;
  }
  return counts;
}

// "  1440 MpiIrecvRequest events (...)" lines of a writer's loss report, by class.
Counts droppedByClass(const std::string& err) {
  Counts dropped;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    uint64_t n = 0;
    std::string kind, what;
    if (line.rfind("  ", 0) == 0 && words >> n >> kind >> what && what == "events")
      dropped[classOf(kind)] += n;
  }
  return dropped;
}

// The sum of the "  N ...WHAT..." lines of the stderr's loss report.
uint64_t reported(const std::string& err, const std::string& what) {
  uint64_t total = 0;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    uint64_t n = 0;
    std::string rest;
    if (line.rfind("  ", 0) == 0 && words >> n && std::getline(words, rest) &&
        rest.find(what) != std::string::npos)
      total += n;
  }
  return total;
}

// One selection: the option text and the events it keeps, decided here on its own.
struct Case {
  std::string name, options;
  std::vector<DumpEvent> kept;
  bool refused = false;  // the trace cannot take the option (exit 2, nothing written)
};

Case locationsCase(const Dumped& d) {
  Case c{"locations", "--locations ", {}, false};
  std::set<uint64_t> chosen;
  for (size_t i = 0; i < (d.locations.size() + 1) / 2; ++i) {
    chosen.insert(d.locations[i]);
    c.options += (i ? "," : "") + std::to_string(d.locations[i]);
  }
  for (const DumpEvent& e : d.events)
    if (chosen.count(e.location)) c.kept.push_back(e);
  return c;
}

Case ranksCase(const Dumped& d) {
  if (d.world.empty()) return {"ranks", "--ranks 0", {}, true};
  const uint64_t last = d.world.size() - 1;
  Case c{"ranks", "--ranks " + std::to_string(last), {}, false};
  const uint64_t group = d.groupOf.at(d.world[last]);
  for (const DumpEvent& e : d.events)
    if (d.groupOf.at(e.location) == group) c.kept.push_back(e);
  return c;
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The first region entered, or MPI_ calls if there are any: calls of other regions go.
Case regionsCase(const Dumped& d) {
  std::string prefix;
  for (const DumpEvent& e : d.events)
    if (e.kind == "Enter" && (prefix.empty() || startsWith(e.region, "MPI_")))
      prefix = startsWith(e.region, "MPI_") ? "MPI_" : e.region.substr(0, 3);
  Case c{"regions", "--regions '" + prefix + "*'", {}, false};
  // A Leave goes with the Enter it closes, the innermost open call (where the input
  // leaves another region than it entered, the Enter decides).
  std::map<uint64_t, std::vector<bool>> stacks;
  for (const DumpEvent& e : d.events) {
    bool keep = e.kind != "Enter" && e.kind != "Leave";
    std::vector<bool>& stack = stacks[e.location];
    if (e.kind == "Enter") stack.push_back(keep = startsWith(e.region, prefix));
    if (e.kind == "Leave" && stack.empty()) keep = startsWith(e.region, prefix);
    if (e.kind == "Leave" && !stack.empty()) keep = stack.back(), stack.pop_back();
    if (keep) c.kept.push_back(e);
  }
  return c;
}

// The first region that encloses another event is dropped with everything inside it.
Case excludeContentsCase(const Dumped& d) {
  std::string excluded;
  for (size_t i = 0; i + 1 < d.events.size() && excluded.empty(); ++i)
    if (d.events[i].kind == "Enter" && d.events[i + 1].kind != "Leave" &&
        d.events[i].region.find_first_of("*?[,'") == std::string::npos)
      excluded = d.events[i].region;
  Case c{"exclude_contents", "--exclude-regions '" + excluded + "' --region-contents", {}, false};
  std::map<uint64_t, std::vector<bool>> stacks;  // per location: open calls, excluded or not
  for (const DumpEvent& e : d.events) {
    std::vector<bool>& stack = stacks[e.location];
    const bool inside = std::find(stack.begin(), stack.end(), true) != stack.end();
    bool drop = inside;
    if (e.kind == "Enter") {
      drop = inside || e.region == excluded;
      stack.push_back(e.region == excluded);
    } else if (e.kind == "Leave" && !stack.empty()) {
      drop = inside;
      stack.pop_back();
    }
    if (!drop) c.kept.push_back(e);
  }
  return c;
}

Case kindsCase(const Dumped& d) {
  Case c{"kinds", "--kinds Enter", {}, false};  // Enter brings Leave
  for (const DumpEvent& e : d.events)
    if (e.kind == "Enter" || e.kind == "Leave") c.kept.push_back(e);
  return c;
}

const std::vector<std::string> kFormats = {"otf2", "paraver", "tau", "mtf", "mtf-xml", "chrome"};

std::string outputName(const std::string& format) {
  if (format == "otf2") return "out/t.otf2";
  if (format == "paraver") return "out/t.prv";
  if (format == "tau") return "out/tau";
  if (format == "chrome") return "t.json";
  return format == "mtf" ? "t.mtf" : "t.mtf.xml";
}

// Chrome: every kept call is one complete ("X") event outside the other categories, or a
// begin ("B") if never left.
void checkChrome(const std::string& out, const Case& c) {
  nlohmann::json json;
  ASSERT_NO_THROW(json = nlohmann::json::parse(readFile(out))) << out;
  const auto& records = json.is_array() ? json : json["traceEvents"];
  uint64_t calls = 0, enters = 0;
  for (const auto& r : records)
    if ((r.value("ph", "") == "X" || r.value("ph", "") == "B") && r.contains("cat") &&
        r["cat"] != "message" && r["cat"] != "collective" && r["cat"] != "state")
      ++calls;
  for (const DumpEvent& e : c.kept) enters += e.kind == "Enter";
  EXPECT_EQ(calls, enters);
}

bool balanced(const std::string& path) {
  const auto info = run(mtfProgram() + " -q info --json '" + path + "'", false);
  EXPECT_EQ(info.status, 0) << path;
  return info.status == 0 &&
         nlohmann::json::parse(info.output)["nesting"]["unbalanced_locations"] == 0;
}

// Calls stay balanced where the input's are (some real traces have calls never left).
void checkOutput(const std::string& format, const std::string& out, const Case& c,
                 const std::string& err, bool inputBalanced) {
  if (format == "chrome") return checkChrome(out, c);
  const auto held = classesHeldBy(format);
  Counts expected = byClass(c.kept, held);
  // A writer reports what its format cannot hold ("  N Kind events ..."); the selection
  // what it lost of the messages.
  for (const auto& [c, n] : droppedByClass(err)) expected[c] -= std::min(expected[c], n);
  // Paraver writes a message only when it has both halves.
  const uint64_t lost = reported(err, "message events whose partner is not among") +
                        reported(err, "sends or receives without a partner");
  expected["messages"] -= std::min(expected["messages"], lost);
  std::erase_if(expected, [](const auto& kv) { return kv.second == 0; });
  EXPECT_EQ(byClass(dumpOf(out, true).events, held), expected) << err;
  if (inputBalanced) {
    EXPECT_TRUE(balanced(out));
  }
  if (format == "otf2") {
    const auto print = run("otf2-print --silent " + out);
    EXPECT_EQ(print.status, 0) << print.output;
  }
}

class Selection : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(Selection, KeepsExactlyWhatTheFilterSelects) {
  const auto& [trace, format] = GetParam();
  const std::string in = std::string(MTF_DATA_DIR) + "/" + trace;
  const Dumped& d = inputDump(in);
  const bool inputBalanced = balanced(in);
  for (const Case& c :
       {locationsCase(d), ranksCase(d), regionsCase(d), excludeContentsCase(d), kindsCase(d)}) {
    SCOPED_TRACE(c.name + ": " + c.options);
    const std::string dir = freshTempDir("select-" + c.name + "-" + format);
    const std::string out = dir + "/" + outputName(format), err = dir + "/stderr.txt";
    // In a subshell: run() redirects the stderr of the whole command line after ours.
    const auto conv = run("(" + mtfProgram() + " convert '" + in + "' -o " + out + " --to " +
                          format + " " + c.options + " 2>" + err + ")");
    if (c.refused) {
      EXPECT_EQ(conv.status, 2) << readFile(err);
      EXPECT_NE(readFile(err).find("defines no MPI ranks"), std::string::npos) << readFile(err);
      EXPECT_FALSE(std::filesystem::exists(out));
      continue;
    }
    ASSERT_EQ(conv.status, 0) << readFile(err);
    checkOutput(format, out, c, readFile(err), inputBalanced);
  }
}

std::string caseName(const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  std::string format = std::get<1>(info.param);
  std::replace(format.begin(), format.end(), '-', '_');
  return traceTestName(info.index, std::get<0>(info.param)) + "_to_" + format;
}

INSTANTIATE_TEST_SUITE_P(RealTraces, Selection,
                         ::testing::Combine(::testing::ValuesIn(breadthTraces()),
                                            ::testing::ValuesIn(kFormats)),
                         caseName);

}  // namespace
}  // namespace mtf::test
