// mtf chop TRACE --iterations K [--zone N] -o OUT: cuts K iterations of a periodic zone
// (found as `mtf structure` finds it) into a trace of any writable format.
#include <algorithm>
#include <iostream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/structure_input.hpp"
#include "structure/chop.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/safe_output.hpp"

namespace mtf::cli {
namespace {

struct ChopOptions {
  StructureCliOptions structure;
  uint64_t iterations = 1;
  unsigned zone = 1;
  bool withInit = false;
  bool shift = false;
  std::string output, to;
  bool force = false;
};

const FormatEntry& chopFormat(const ChopOptions& o) {
  if (o.to.empty()) return formatForOutput(o.output);
  const FormatEntry* f = formatByName(o.to);
  if (!f || !f->openWriter) throw UsageError("--to " + o.to + ": no such output format");
  return *f;
}

structure::ChopWindow chopWindow(const ChopOptions& o, const StructureResult& s) {
  try {
    return structure::chopWindow(s.regions, s.input.grid.start, o.zone, o.iterations, o.withInit,
                                 o.shift);
  } catch (const structure::NoPeriodicZone&) {
    throw InputError(o.structure.trace, "", "no periodic zone found: nothing to chop");
  }
}

void runChop(const ChopOptions& o, const GlobalOptions& g) {
  if (samePath(o.structure.trace, o.output))
    throw UsageError(o.output + ": the output is the input");
  const FormatEntry& format = chopFormat(o);
  const StructureResult s = analyseTrace(o.structure, g);
  const structure::ChopWindow w = chopWindow(o, s);
  auto source = openInput(o.structure.trace, o.structure.lenient);
  catchInterrupts();
  SafeOutput out(o.output, o.force);
  auto writer = format.openWriter(out.stagingPath(), WriteOptions{});
  InterruptibleSink interruptible(*writer);
  structure::ChopSink chop(interruptible, w);
  source->read(chop);
  const LossReport losses = chop.losses();
  if (!losses.empty()) {
    std::cerr << "mtf: " << o.output << ": not in the chop:\n";
    for (const auto& [what, n] : losses) std::cerr << "  " << n << " " << what << '\n';
  }
  writer.reset();
  out.commit();
  if (!g.quiet)
    std::cerr << "mtf: chopped " << o.structure.trace << " [" << w.from << ", " << w.to
              << ") ticks -> " << o.output << " (" << format.name << "): " << chop.eventsWritten()
              << " of " << s.run.events << " events\n";
}

void setupChop(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ChopOptions>();
  CLI::App* cmd = app.add_subcommand(
      "chop",
      "Cut K iterations of a periodic zone (as `mtf structure` finds it) into a trace of any\n"
      "writable format. Calls open at the cut are entered again at its start and left at its\n"
      "end (every Enter has its Leave); messages whose partner is outside are counted on\n"
      "stderr. Times are kept unless --shift-times.");
  cmd->add_option("TRACE", o->structure.trace, "Trace to cut (any readable format)")->required();
  cmd->add_option("--iterations", o->iterations, "Iterations to cut")->required();
  cmd->add_option("--zone", o->zone, "Which periodic zone of level 1, counted from 1")
      ->capture_default_str();
  cmd->add_flag("--with-init", o->withInit,
                "From the trace's start (the initialisation) to the end of the zone's first K "
                "iterations");
  cmd->add_flag("--shift-times", o->shift, "Times start at 0 at the cut (as Paraver's cutter)");
  cmd->add_option("-o,--output", o->output, "Output trace (its name picks the format)")->required();
  cmd->add_option("--to", o->to, "Output format by name (otf2, paraver, tau, mtf, mtf-xml)");
  cmd->add_flag("--force", o->force, "Replace an existing output");
  addStructureOptions(*cmd, o->structure);
  cmd->callback([o, &global] { runChop(*o, global); });
}

MTF_COMMAND(82, "chop", setupChop);

}  // namespace
}  // namespace mtf::cli
