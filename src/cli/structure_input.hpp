// What `mtf structure` and `mtf chop` share: the options of the structure search and the
// analysis of a trace with them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "structure/analyse.hpp"

namespace mtf::cli {

struct StructureCliOptions {
  std::string trace;
  std::string what = "auto";
  std::string perturbed = "flush";
  size_t bins = structure::AnalyseRequest{}.bins;
  unsigned levels = structure::StructureOptions{}.levels;
  bool lenient = false;
  bool loops = false;  // relate the periods to NLR's outermost loop (a second read)
};

struct StructureResult {
  structure::SignalRun run;
  structure::StructureInput input;
  std::vector<structure::StructureRegion> regions;
  std::string signalName, perturbationName;
  std::vector<std::string> notes;  // remarks printed under the table
};

void addStructureOptions(CLI::App& cmd, StructureCliOptions& o);
StructureResult analyseTrace(const StructureCliOptions& o, const GlobalOptions& global);

}  // namespace mtf::cli
