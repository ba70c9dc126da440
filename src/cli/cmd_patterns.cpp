// mtf patterns TRACE [--json] [--top N]: repeating communication patterns of a trace
// and the known patterns (ring, mesh, wavefront, butterfly, trees, master/worker,
// all-to-all) its communication follows.
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "patterns/analysis.hpp"

namespace mtf::cli {
namespace {

struct PatternsOptions {
  std::string trace;
  bool json = false;
  size_t top = 10;
  bool keepEnvelope = false;
  uint32_t maxPeriod = 64;
  bool lenient = false;
};

void runPatterns(const PatternsOptions& o) {
  auto source = openInput(o.trace, o.lenient);
  patterns::DetectOptions detect;
  detect.symbols.keepEnvelope = o.keepEnvelope;
  detect.maxPeriod = o.maxPeriod;
  const patterns::PatternReport report = patterns::analyzeTrace(*source, detect);
  std::cout << (o.json ? patterns::reportJson(report, o.top) : patterns::reportText(report, o.top));
}

void setupPatterns(CLI::App& app, const GlobalOptions&) {
  auto opts = std::make_shared<PatternsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "patterns",
      "Find repeating communication patterns (per process, then across processes) and name the "
      "known patterns the trace follows, with their parameters and where they occur");
  cmd->add_option("TRACE", opts->trace, "Trace (any readable format)")->required();
  cmd->add_flag("--json", opts->json,
                "JSON output; keys: processes, resolution, known_patterns (pattern, parameters, "
                "occurrences, events_covered, processes, first_time, last_time, first_seconds, "
                "last_seconds, communication_patterns, positions), near_misses (pattern, "
                "parameters, communication_pattern, processes, missing_edges, extra_edges, "
                "ranks_missing_partner, text), communication_pattern_count, "
                "communication_patterns (index, frequency, events_covered, collective_only, "
                "first_time, last_time, processes, edges, members), locations");
  cmd->add_option("--top", opts->top,
                  "How many communication patterns to list (default 10; 0: known patterns only)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_flag(
      "--envelope", opts->keepEnvelope,
      "Keep message size, tag and communicator in the events compared (default: dropped)");
  cmd->add_option("--max-period", opts->maxPeriod,
                  "Longest loop body (in communication events) collapsed as a contiguous repeat "
                  "(default 64)")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records of the input");
  cmd->callback([opts] { runPatterns(*opts); });
}

MTF_COMMAND(70, "patterns", setupPatterns);

}  // namespace
}  // namespace mtf::cli
