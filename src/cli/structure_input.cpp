#include "cli/structure_input.hpp"

#include <cstdio>

#include "cli/common.hpp"
#include "structure/loop_relation.hpp"
#include "util/error.hpp"

namespace mtf::cli {

void addStructureOptions(CLI::App& cmd, StructureCliOptions& o) {
  cmd.add_option("--what", o.what,
                 std::string("Signal whose periods give the structure: auto (p2p, or mpi when p2p "
                             "shows no periodic zone), ") +
                     structure::kSignalKindsHelp)
      ->capture_default_str();
  cmd.add_option("--perturbed", o.perturbed,
                 "Signal whose closing marks perturbed regions (same kinds; e.g. flush, "
                 "region:NAME, metric:NAME)")
      ->capture_default_str();
  cmd.add_option("--bins", o.bins, "Bins of the time grid (at most)")->capture_default_str();
  cmd.add_option("--levels", o.levels, "Levels of the hierarchy below the whole trace")
      ->capture_default_str();
  cmd.add_flag("--lenient", o.lenient, "Skip bad records instead of failing");
  cmd.add_flag("--loops", o.loops,
               "Also find the loop nests (NLR, as mtf loops) and compare the outermost loop's "
               "iteration time with the periodic zone's period (reads the trace once more)");
}

namespace {

// NLR's outermost loop next to the periodic zones.
std::string loopNote(const StructureCliOptions& o, const nlr::NlrSink& loops,
                     const StructureResult& r) {
  const std::optional<structure::OuterLoop> outer = structure::outermostLoop(loops.results());
  if (!outer || outer->iterations < 2) return "NLR found no loop at the top of the location";
  const uint64_t last = outer->firstSymbol + (outer->iterations - 1) * outer->bodySymbols;
  structure::SymbolTimes times(outer->location, {outer->firstSymbol, last});
  openInput(o.trace, o.lenient)->read(times);
  if (!times.timeOf(0) || !times.timeOf(1))
    return "NLR's outermost loop: its events were not found";
  structure::LoopTiming t;
  t.loop = *outer;
  t.start = *times.timeOf(0);
  t.iterationTicks =
      static_cast<double>(*times.timeOf(1) - t.start) / static_cast<double>(outer->iterations - 1);
  return structure::relateLoopAndZones(t, r.regions, r.run.defs.clock.resolution);
}

// Zones found as burst trains say so under the table: their period is the mean of
// iterations of varying length, not an autocorrelation peak.
void trainNotes(const std::vector<structure::StructureRegion>& regions, unsigned level,
                uint64_t resolution, std::vector<std::string>& notes) {
  for (const auto& r : regions) {
    if (r.foundBy == structure::FoundBy::BurstTrain) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "periodic zone (level %u) at %.3f ms: a burst train (iterations of varying "
                    "length, alike in events; the period is their mean)",
                    level, static_cast<double>(r.start) * 1000.0 / static_cast<double>(resolution));
      notes.push_back(line);
    }
    trainNotes(r.children, level + 1, resolution, notes);
  }
}

}  // namespace

StructureResult analyseTrace(const StructureCliOptions& o, const GlobalOptions&) {
  if (o.bins < 16 || o.bins > (size_t{1} << 26)) throw UsageError("--bins must be 16 to 2^26");
  if (o.levels < 1) throw UsageError("--levels must be at least 1");
  structure::AnalyseRequest request;
  // "auto": the seed's p2p signal, or the MPI signal when p2p shows no periodic zone.
  request.orMpi = o.what == "auto";
  request.signal = structure::parseSignalSpec(request.orMpi ? "p2p" : o.what);
  request.perturbation = structure::parseSignalSpec(o.perturbed);
  request.bins = o.bins;
  request.options.levels = o.levels;
  std::unique_ptr<nlr::NlrSink> loops;
  if (o.loops) {
    nlr::SignatureOptions signatures;
    signatures.selection = nlr::EventSelection::Communication;
    signatures.canonicalCallOrder = true;
    loops = std::make_unique<nlr::NlrSink>(nlr::NlrOptions{}, signatures);
  }
  structure::Analysis a =
      structure::analyse([&] { return openInput(o.trace, o.lenient); }, request, loops.get());
  StructureResult r{std::move(a.run),
                    std::move(a.input),
                    std::move(a.regions),
                    structure::signalName(a.signal),
                    structure::signalName(request.perturbation),
                    {}};
  trainNotes(r.regions, 1, r.run.defs.clock.resolution, r.notes);
  if (loops) r.notes.push_back(loopNote(o, *loops, r));
  return r;
}

}  // namespace mtf::cli
