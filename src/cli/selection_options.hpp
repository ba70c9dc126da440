// The selection options of `mtf convert` (--ranks, --locations, --regions,
// --exclude-regions, --region-contents, --kinds, --exclude-kinds): src/filter/selection.hpp.
#pragma once

#include <CLI/CLI.hpp>

#include "filter/selection.hpp"

namespace mtf::cli {

void addSelectionOptions(CLI::App& cmd, filter::SelectionOptions& options);

}  // namespace mtf::cli
