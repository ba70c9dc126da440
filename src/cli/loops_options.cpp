#include "cli/loops_options.hpp"

#include <iostream>

#include "cli/common.hpp"
#include "util/error.hpp"

namespace mtf::cli {

void addLoopsOptions(CLI::App* cmd, LoopsOptions& o) {
  auto* opts = &o;
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_option("--location", opts->location, "Only this location (id)");
  cmd->add_flag("--json", opts->json, "The same loop trees as JSON");
  cmd->add_flag("--stats", opts->stats, "Events in and elements of the model, per location");
  cmd->add_option("--window", opts->window, "Elements NLR keeps for recognition")
      ->capture_default_str();
  cmd->add_option("--min-reps", opts->minReps, "Copies of a sequence that make a loop")
      ->capture_default_str();
  cmd->add_option("--signature", opts->signature,
                  "Fields compared besides the kind: region,partner,tag,comm,size,ident or all")
      ->capture_default_str();
  cmd->add_flag("--ignore-size", opts->ignoreSize, "Message sizes do not count");
  cmd->add_option("--events", opts->events,
                  "mpi: MPI messages and collectives only (Figure 3); all: every event, MPI\n"
                  "calls as Enter, event, Leave")
      ->capture_default_str();
  cmd->add_flag("--exact-order", opts->exactOrder,
                "Keep the trace's order of the events inside one MPI call (by default they are\n"
                "sorted: the order in which MPI_Waitall completes requests is timing)");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
}

nlr::SignatureOptions signatureOptions(const LoopsOptions& o) {
  if (o.minReps < 2) throw UsageError("--min-reps must be at least 2");
  if (o.window < o.minReps) throw UsageError("--window must be at least --min-reps");
  nlr::SignatureOptions s;
  s.fields = nlr::parseSignatureFields(o.signature);
  if (o.ignoreSize) s.fields &= ~nlr::kFieldSize;
  s.canonicalCallOrder = !o.exactOrder;
  if (o.events == "mpi")
    s.selection = nlr::EventSelection::Communication;
  else if (o.events == "all")
    s.selection = nlr::EventSelection::All;
  else
    throw UsageError("--events: expected 'mpi' or 'all', not '" + o.events + "'");
  return s;
}

void printLoops(const LoopsOptions& o, const std::vector<nlr::LocationLoops>& all,
                const nlr::EventNamer& namer) {
  if (o.location && all.empty())
    throw InputError(o.trace, placeLocation(*o.location), "no events at this location");
  std::ios::sync_with_stdio(false);
  if (o.json) {
    nlr::printLoopsJson(std::cout, all, namer);
  } else if (o.stats) {
    nlr::printLoopStats(std::cout, all);
  } else {
    for (size_t i = 0; i < all.size(); ++i) {
      if (i) std::cout << '\n';
      nlr::printLoopProgram(std::cout, all[i], namer);
    }
  }
  flushStdout();
}

}  // namespace mtf::cli
