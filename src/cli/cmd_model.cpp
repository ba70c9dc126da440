// mtf model TRACE: the program-wide loop model (the per-location nests merged across
// processes, seed 000 section III) as text with process ranges, or JSON.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/program_input.hpp"
#include "nlr/loop_print.hpp"
#include "program/model_print.hpp"
#include "program/model_svg.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/safe_output.hpp"

namespace mtf::cli {
namespace {

struct ModelOptions {
  std::string trace;
  bool json = false;
  bool positions = false;
  std::string svg;
  bool force = false;
  bool recompute = false;
  bool lenient = false;
};

void writeSvg(const ModelOptions& o, const ProgramInput& input, const nlr::EventNamer& namer) {
  catchInterrupts();
  SafeOutput output(o.svg, o.force);
  {
    std::ofstream file(output.stagingPath());
    if (!file) throw IoError(o.svg, "cannot create");
    program::writeModelSvg(file, input.model, namer);
    file.close();
    if (!file) throw IoError(o.svg, "write failed");
  }
  output.commit();
}

void runModel(const ModelOptions& o, const GlobalOptions& global) {
  const ProgramInput input = readProgramModel(o.trace, o.lenient, o.recompute);
  if (input.stored && !global.quiet)
    std::fprintf(stderr, "mtf: program model stored in %s\n", o.trace.c_str());
  const nlr::EventNamer namer(input.defs, {input.fields});
  if (!o.svg.empty()) {
    writeSvg(o, input, namer);
    return;
  }
  std::ios::sync_with_stdio(false);
  if (o.json)
    program::printModelJson(std::cout, input.model, namer);
  else
    program::printModelText(std::cout, input.model, namer, o.positions);
  flushStdout();
}

void setupModel(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<ModelOptions>();
  CLI::App* cmd = app.add_subcommand(
      "model",
      "Merge the loop nests of every process (mtf loops) into one model of the program:\n"
      "loops and events covering sets of ranks, 'for i0 = 1 to 249 [0-15]'; in an event\n"
      "covering several ranks, 'r' is each of them ('r send r+1 tag1 40B [0-2]'). A loop\n"
      "the merge leaves per process says why ('# per process: ...').");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_flag("--json", opts->json,
                "JSON: constructs with type, ranks, position; loops count and body");
  cmd->add_flag("--positions", opts->positions,
                "Print each construct's position (2.1 = second in the body of the third)");
  cmd->add_option("--svg", opts->svg,
                  "Draw the model (seed's Figure 5) into this SVG file instead of printing it");
  cmd->add_flag("--force", opts->force, "Replace an existing SVG file");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->add_flag("--recompute", opts->recompute,
                "On an MTF file that stores the model (as mtf convert writes it), build it again");
  cmd->callback([opts, &global] { runModel(*opts, global); });
}

MTF_COMMAND(62, "model", setupModel);

}  // namespace
}  // namespace mtf::cli
