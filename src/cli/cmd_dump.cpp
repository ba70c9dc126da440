// mtf dump TRACE: the canonical text form, one event per line, for diffs and golden tests.
#include <iostream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "model/text_dump.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

struct DumpOptions {
  std::string trace;
  bool eventsOnly = false;
  bool lenient = false;
};

void runDump(const DumpOptions& o) {
  auto source = openInput(o.trace, o.lenient);
  std::ios::sync_with_stdio(false);
  TextDumpSink sink(std::cout, !o.eventsOnly);
  source->read(sink);
  flushStdout();
}

void setupDump(CLI::App& app, const GlobalOptions&) {
  auto opts = std::make_shared<DumpOptions>();
  CLI::App* cmd = app.add_subcommand(
      "dump",
      "Print a trace in canonical text: definitions, then one event per line\n"
      "  L<location> <time in ticks> <Kind> field=value ... [| attr<id>:<type>=<value> ...]\n"
      "Events come in the reader's order (OTF2: location by location; Paraver: by time).");
  cmd->add_option("TRACE", opts->trace, "Trace to print")->required();
  cmd->add_flag("--events-only", opts->eventsOnly, "Leave out the definitions");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts] { runDump(*opts); });
}

MTF_COMMAND(20, "dump", setupDump);

}  // namespace
}  // namespace mtf::cli
