#include "cli/selection_options.hpp"

namespace mtf::cli {

// The region options take one value each time (repeat them for more), so that a pattern
// never swallows the INPUT that follows it.
void addSelectionOptions(CLI::App& cmd, filter::SelectionOptions& o) {
  const char* group = "Selection (applied while streaming)";
  cmd.add_option("--ranks", o.ranks,
                 "Keep only these MPI ranks (world ranks: 0-15,32; or their process names),\n"
                 "each with all its threads")
      ->group(group);
  cmd.add_option("--locations", o.locations,
                 "Keep only these locations (ids as mtf dump shows them: 0-15,32; or names);\n"
                 "with --ranks, the locations both select")
      ->group(group);
  cmd.add_option("--regions", o.regions,
                 "Keep only the calls of regions whose name matches a glob (MPI_*,main);\n"
                 "repeatable, or comma-separated; other events stay")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  cmd.add_option("--exclude-regions", o.excludeRegions,
                 "Drop the calls of regions whose name matches a glob; repeatable, or\n"
                 "comma-separated")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->group(group);
  cmd.add_flag("--region-contents", o.regionContents,
               "The region filters take what lies inside a call with it: only events inside\n"
               "a kept call stay, nothing inside a dropped call stays")
      ->group(group);
  cmd.add_option("--kinds", o.kinds,
                 "Keep only these event kinds (as mtf dump names them: Enter,MpiSend; Enter\n"
                 "brings Leave, MpiCollectiveBegin brings MpiCollectiveEnd, and back)")
      ->group(group);
  cmd.add_option("--exclude-kinds", o.excludeKinds, "Drop these event kinds")->group(group);
}

}  // namespace mtf::cli
