#include "cli/structure_input.hpp"

#include "cli/common.hpp"
#include "util/error.hpp"

namespace mtf::cli {

void addStructureOptions(CLI::App& cmd, StructureCliOptions& o) {
  cmd.add_option(
         "--what", o.what,
         std::string("Signal whose periods give the structure: ") + structure::kSignalKindsHelp)
      ->capture_default_str();
  cmd.add_option("--perturbed", o.perturbed,
                 "Signal whose closing marks perturbed regions (same kinds; e.g. flush, "
                 "region:NAME, metric:NAME)")
      ->capture_default_str();
  cmd.add_option("--bins", o.bins, "Bins of the time grid (at most)")->capture_default_str();
  cmd.add_option("--levels", o.levels, "Levels of the hierarchy below the whole trace")
      ->capture_default_str();
  cmd.add_flag("--lenient", o.lenient, "Skip bad records instead of failing");
}

StructureResult analyseTrace(const StructureCliOptions& o, const GlobalOptions&) {
  if (o.bins < 16 || o.bins > (size_t{1} << 26)) throw UsageError("--bins must be 16 to 2^26");
  if (o.levels < 1) throw UsageError("--levels must be at least 1");
  structure::AnalyseRequest request;
  request.signal = structure::parseSignalSpec(o.what);
  request.perturbation = structure::parseSignalSpec(o.perturbed);
  request.bins = o.bins;
  request.options.levels = o.levels;
  structure::Analysis a =
      structure::analyse([&] { return openInput(o.trace, o.lenient); }, request);
  StructureResult r{std::move(a.run),
                    std::move(a.input),
                    std::move(a.regions),
                    structure::signalName(request.signal),
                    structure::signalName(request.perturbation),
                    {}};
  return r;
}

}  // namespace mtf::cli
