// mtf signal TRACE --what KIND [--bins N] [--csv]: one signal of the trace sampled on a
// time grid (the structure paper's signals), one line per bin.
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "structure/signal.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

struct SignalOptions {
  std::string trace;
  std::string what = "p2p";
  size_t bins = 1000;
  bool csv = false;
  bool lenient = false;
};

void printSignal(const structure::Signal& s, uint64_t resolution, bool csv) {
  std::ios::sync_with_stdio(false);
  const structure::TimeGrid& g = s.grid;
  if (csv) {
    std::cout << "bin,start_ticks,end_ticks,start_seconds," << structure::signalName(s.spec)
              << '\n';
  } else {
    std::cout << "# signal " << structure::signalName(s.spec) << ": " << g.bins << " bins of "
              << g.width << " ticks from tick " << g.start << " (" << resolution
              << " ticks per second)\n# bin start_ticks value\n";
  }
  char value[64];
  for (size_t b = 0; b < g.bins; ++b) {
    std::snprintf(value, sizeof value, "%.6g", s.samples[b]);
    if (csv)
      std::cout << b << ',' << g.binStart(b) << ',' << g.binStart(b + 1) << ','
                << decimalSeconds(g.binStart(b), resolution) << ',' << value << '\n';
    else
      std::cout << b << ' ' << g.binStart(b) << ' ' << value << '\n';
  }
  flushStdout();
}

void runSignal(const SignalOptions& o, const GlobalOptions& global) {
  const structure::SignalSpec spec = structure::parseSignalSpec(o.what);
  if (o.bins == 0 || o.bins > (size_t{1} << 26)) throw UsageError("--bins must be 1 to 2^26");
  const structure::SignalRun run =
      structure::readSignals([&] { return openInput(o.trace, o.lenient); }, {spec}, o.bins);
  if (run.outsideGrid && !global.quiet)
    std::fprintf(stderr,
                 "mtf: %llu events lie outside the span the definitions declare; "
                 "they are counted in the first or last bin\n",
                 static_cast<unsigned long long>(run.outsideGrid));
  printSignal(run.signals.front(), run.defs.clock.resolution, o.csv);
}

void setupSignal(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<SignalOptions>();
  CLI::App* cmd = app.add_subcommand(
      "signal",
      "Print one signal of the trace sampled on a time grid: for each bin its mean value\n"
      "(processes in a kind of call, a metric's value, or the events in the bin).");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_option("--what", opts->what, std::string("The signal: ") + structure::kSignalKindsHelp)
      ->capture_default_str();
  cmd->add_option("--bins", opts->bins, "Bins of the time grid (at most; whole ticks each)")
      ->capture_default_str();
  cmd->add_flag("--csv", opts->csv, "CSV with a header: bin, start and end ticks, seconds, value");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts, &global] { runSignal(*opts, global); });
}

MTF_COMMAND(80, "signal", setupSignal);

}  // namespace
}  // namespace mtf::cli
