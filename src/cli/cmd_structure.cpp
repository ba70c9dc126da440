// mtf structure TRACE [--json]: the trace's hierarchical structure (the structure paper's
// Table 5): perturbed regions, periodic zones with their period and iterations, the
// non-periodic phases between them, and inside one iteration of each zone the next level.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/structure_input.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

std::string milliseconds(Tick ticks, uint64_t resolution) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f",
                static_cast<double>(ticks) * 1000.0 / static_cast<double>(resolution));
  return text;
}

void printRegion(const structure::StructureRegion& r, unsigned level, uint64_t resolution) {
  const std::string period = r.period ? milliseconds(r.period, resolution) : "-";
  const std::string cell =
      milliseconds(r.end - r.start, resolution) + "/" + std::to_string(r.iterations) + "/" + period;
  std::printf("%-6u%*s%-*s %14s  %-32s %6.1f %14llu\n", level, 2 * (level - 1), "",
              14 - 2 * (level - 1), std::string(structure::regionKindName(r.kind)).c_str(),
              milliseconds(r.start, resolution).c_str(), cell.c_str(), 100.0 * r.mpiFraction,
              static_cast<unsigned long long>(r.events));
  for (const auto& child : r.children) printRegion(child, level + 1, resolution);
}

void printText(const StructureResult& s, const std::string& trace) {
  const uint64_t resolution = s.run.defs.clock.resolution;
  const structure::TimeGrid& g = s.input.grid;
  std::printf(
      "# structure of %s: signal %s, perturbation %s, %zu bins of %llu ticks; times in ms\n",
      trace.c_str(), s.signalName.c_str(), s.perturbationName.c_str(), g.bins,
      static_cast<unsigned long long>(g.width));
  std::printf("%-6s%-14s %14s  %-32s %6s %14s\n", "level", "region", "start_ms", "span/#it/T",
              "mpi%", "events");
  structure::StructureRegion whole;
  whole.start = g.start;
  whole.end = g.end();
  whole.events = s.run.events;
  std::printf("%-6u%-14s %14s  %-32s %6s %14llu\n", 0u, "trace",
              milliseconds(g.start, resolution).c_str(),
              (milliseconds(g.end() - g.start, resolution) + "/1/-").c_str(), "",
              static_cast<unsigned long long>(s.run.events));
  for (const auto& r : s.regions) printRegion(r, 1, resolution);
  for (const std::string& note : s.notes) std::printf("# %s\n", note.c_str());
}

nlohmann::ordered_json regionJson(const structure::StructureRegion& r) {
  nlohmann::ordered_json j;
  j["kind"] = structure::regionKindName(r.kind);
  j["start"] = r.start;
  j["end"] = r.end;
  j["period"] = r.period ? nlohmann::ordered_json(r.period) : nlohmann::ordered_json(nullptr);
  j["iterations"] = r.iterations;
  j["found_by"] = r.foundBy == structure::FoundBy::None
                      ? nlohmann::ordered_json(nullptr)
                      : nlohmann::ordered_json(structure::foundByName(r.foundBy));
  j["mpi_fraction"] = r.mpiFraction;
  j["events"] = r.events;
  nlohmann::ordered_json children = nlohmann::ordered_json::array();
  for (const auto& c : r.children) children.push_back(regionJson(c));
  j["children"] = children;
  return j;
}

void printJson(const StructureResult& s) {
  nlohmann::ordered_json j;
  j["signal"] = s.signalName;
  j["perturbation"] = s.perturbationName;
  j["resolution"] = s.run.defs.clock.resolution;
  j["start"] = s.input.grid.start;
  j["end"] = s.input.grid.end();
  j["bin_ticks"] = s.input.grid.width;
  nlohmann::ordered_json regions = nlohmann::ordered_json::array();
  for (const auto& r : s.regions) regions.push_back(regionJson(r));
  j["regions"] = regions;
  j["notes"] = s.notes;
  std::cout << j.dump(2) << '\n';
}

void setupStructure(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<StructureCliOptions>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "structure",
      "Find the trace's structure: perturbed regions (a morphological closing of the\n"
      "perturbation signal), periodic zones (autocorrelation by FFT; the main period must\n"
      "stand 10% above every other peak, else the signal is closed and searched again) with\n"
      "their period and iterations, the non-periodic phases between them, and inside one\n"
      "iteration of each zone the next level. Each row: span/#iterations/period in ms,\n"
      "time in MPI (%), events.");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_flag("--json", *json,
                "JSON: regions (each kind, start, end, period in ticks or null, iterations, "
                "found_by (autocorrelation, burst-train or null), mpi_fraction, events, "
                "children)");
  addStructureOptions(*cmd, *opts);
  cmd->callback([opts, json, &global] {
    const StructureResult s = analyseTrace(*opts, global);
    if (*json)
      printJson(s);
    else
      printText(s, opts->trace);
    std::cout.flush();
    std::fflush(stdout);
    if (!std::cout || std::ferror(stdout)) throw IoError("<stdout>", "write failed");
  });
}

MTF_COMMAND(81, "structure", setupStructure);

}  // namespace
}  // namespace mtf::cli
