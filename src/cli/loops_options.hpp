// What `mtf loops` and `mtf-mpi loops` share: their options (the recognition's and the
// printing's) and the printing of the loop nests.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "nlr/loop_print.hpp"
#include "nlr/nlr_sink.hpp"

namespace mtf::cli {

struct LoopsOptions {
  std::string trace;
  std::optional<uint64_t> location;
  bool json = false;
  bool stats = false;
  bool lenient = false;
  size_t window = nlr::NlrOptions{}.window;
  unsigned minReps = nlr::NlrOptions{}.minReps;
  std::string signature = "all";
  bool ignoreSize = false;
  std::string events = "mpi";
  bool exactOrder = false;
  bool recompute = false;  // mtf loops only
};

// Adds TRACE and the options of LoopsOptions (all but --recompute) to `cmd`.
void addLoopsOptions(CLI::App* cmd, LoopsOptions& o);
// Checks the options (UsageError) and gives the signature options they ask for.
nlr::SignatureOptions signatureOptions(const LoopsOptions& o);
// Prints the nests as the options ask (loop program, --json or --stats) on stdout.
void printLoops(const LoopsOptions& o, const std::vector<nlr::LocationLoops>& all,
                const nlr::EventNamer& namer);

}  // namespace mtf::cli
