// mtf info TRACE [--json]: what a trace holds, at a glance.
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/info_collector.hpp"
#include "model/nesting_check.hpp"

namespace mtf::cli {
namespace {

struct InfoOptions {
  std::string trace;
  bool json = false;
  bool lenient = false;
};

std::map<std::string, uint64_t> locationTypes(const Definitions& defs) {
  static const char* names[] = {"unknown", "cpu_thread", "gpu", "metric"};
  std::map<std::string, uint64_t> out;
  for (const LocationView& l : defs.locations()) {
    const auto t = static_cast<size_t>(l.type);
    ++out[t < 4 ? names[t] : "other"];
  }
  return out;
}

nlohmann::ordered_json nestingJson(const NestingSummary& n) {
  nlohmann::ordered_json j;
  j["max_depth"] = n.maxDepth;
  j["calls_never_left"] = n.callsNeverLeft;
  j["leaves_without_enter"] = n.unmatchedLeaves;
  j["leaves_mismatched"] = n.mismatchedLeaves;
  j["unbalanced_locations"] = n.unbalancedLocations;
  return j;
}

nlohmann::ordered_json buildInfo(TraceSource& source, const InfoCollector& c,
                                 const NestingSummary& nesting) {
  const Definitions& defs = source.definitions();
  nlohmann::ordered_json j;
  j["format"] = defs.info.format;
  j["format_version"] = defs.info.version;
  j["creator"] = defs.info.creator;
  j["locations"] = defs.locations().size();
  j["location_types"] = locationTypes(defs);
  j["events"] = c.total();
  nlohmann::ordered_json byKind = nlohmann::ordered_json::object();
  for (size_t k = 0; k < kEventKindCount; ++k)
    if (const uint64_t n = c.count(static_cast<EventKind>(k)))
      byKind[std::string(nameOf(static_cast<EventKind>(k)))] = n;
  j["events_by_kind"] = byKind;
  j["resolution"] = defs.clock.resolution;
  const uint64_t span = c.empty() ? 0 : c.last() - c.first();
  j["first_timestamp"] = c.empty() ? 0 : c.first();
  j["last_timestamp"] = c.last();
  j["time_span_ticks"] = span;
  j["time_span_seconds"] = decimalSeconds(span, defs.clock.resolution);
  nlohmann::ordered_json defCounts = nlohmann::ordered_json::object();
  for (size_t k = 0; k < kDefKindCount; ++k)
    if (const size_t n = defs.count(static_cast<DefKind>(k)))
      defCounts[std::string(nameOf(static_cast<DefKind>(k)))] = n;
  j["definitions"] = defCounts;
  j["input_records"] = source.inputRecords();
  j["unmodelled"] = source.unmodelled();
  j["nesting"] = nestingJson(nesting);
  return j;
}

void printMap(std::ostream& out, const char* title, const nlohmann::ordered_json& map) {
  out << title << (map.empty() ? " none\n" : "\n");
  for (const auto& [key, value] : map.items()) out << "  " << key << ": " << value << '\n';
}

void printText(std::ostream& out, const nlohmann::ordered_json& j) {
  out << "format:      " << j["format"].get<std::string>();
  if (!j["format_version"].get<std::string>().empty())
    out << " " << j["format_version"].get<std::string>();
  if (!j["creator"].get<std::string>().empty())
    out << " (" << j["creator"].get<std::string>() << ")";
  out << "\nlocations:   " << j["locations"] << '\n';
  for (const auto& [type, n] : j["location_types"].items())
    out << "  " << type << ": " << n << '\n';
  out << "events:      " << j["events"] << '\n';
  for (const auto& [kind, n] : j["events_by_kind"].items())
    out << "  " << kind << ": " << n << '\n';
  out << "resolution:  " << j["resolution"] << " ticks/s\n";
  out << "time span:   " << j["time_span_ticks"] << " ticks ("
      << j["time_span_seconds"].get<std::string>() << " s), from " << j["first_timestamp"] << " to "
      << j["last_timestamp"] << '\n';
  printMap(out, "definitions:", j["definitions"]);
  if (!j["input_records"].empty()) printMap(out, "input records:", j["input_records"]);
  printMap(out, "not modelled:", j["unmodelled"]);
  const auto& n = j["nesting"];
  out << "nesting:     max depth " << n["max_depth"];
  if (n["unbalanced_locations"] == 0) {
    out << ", every enter left\n";
    return;
  }
  out << ", unbalanced on " << n["unbalanced_locations"] << " locations (kept as they are)\n"
      << "  calls never left: " << n["calls_never_left"] << '\n'
      << "  leaves without an enter: " << n["leaves_without_enter"] << '\n'
      << "  leaves of another region: " << n["leaves_mismatched"] << '\n';
}

void runInfo(const InfoOptions& o, const GlobalOptions& g) {
  auto source = openInput(o.trace, o.lenient);
  Progress progress("reading " + o.trace, !g.quiet && stderrIsTerminal());
  InfoCollector collector(&progress, /*batches=*/true);
  source->read(collector);
  progress.finish();
  const auto j = buildInfo(*source, collector, collector.nesting().summary());
  if (o.json)
    std::cout << j.dump(2) << '\n';
  else
    printText(std::cout, j);
}

void setupInfo(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* cmd = app.add_subcommand(
      "info",
      "Summarise a trace: format, locations, events by kind, time span, what was not modelled");
  cmd->add_option("TRACE", opts->trace,
                  "Trace (OTF2 anchor or directory, .prv[.gz], TAU dir, .mtf, .mtf.xml)")
      ->required();
  cmd->add_flag(
      "--json", opts->json,
      "JSON output; keys: format, format_version, creator, locations, location_types, events, "
      "events_by_kind, resolution, first_timestamp, last_timestamp, time_span_ticks, "
      "time_span_seconds, definitions, input_records, unmodelled, nesting (max_depth, "
      "calls_never_left, leaves_without_enter, leaves_mismatched, unbalanced_locations)");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records (counted under 'not modelled')");
  cmd->callback([opts, &global] { runInfo(*opts, global); });
}

MTF_COMMAND(10, "info", setupInfo);

}  // namespace
}  // namespace mtf::cli
