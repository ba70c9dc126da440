// mtf match TRACE --pattern NAME|FILE [-k K] [--json]: occurrences of a given
// communication pattern (built in, parameterized by the trace's number of processes, or
// from a pattern file; format in src/patterns/library.hpp), exact or within edit
// distance K.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "patterns/trace_match.hpp"
#include "util/error.hpp"

namespace mtf::cli {
namespace {

struct MatchCliOptions {
  std::string trace;
  std::string pattern;
  uint32_t k = 0;
  uint32_t ngram = 2;
  bool json = false;
  bool lenient = false;
};

patterns::PatternSpec patternFor(const std::string& nameOrFile, size_t processes) {
  if (auto builtin = patterns::builtinPattern(nameOrFile, processes)) return *builtin;
  if (std::filesystem::exists(nameOrFile)) return patterns::readPatternFile(nameOrFile, processes);
  std::string names;
  for (const auto& n : patterns::builtinPatternNames()) names += " " + n;
  throw UsageError("--pattern " + nameOrFile + ": neither a built-in pattern (" + names.substr(1) +
                   ") nor a pattern file");
}

void runMatch(const MatchCliOptions& o) {
  auto source = openInput(o.trace, o.lenient);
  patterns::MatchOptions match;
  match.maxDistance = o.k;
  match.ngram = o.ngram;
  // Patterns name partners and collectives only, so the envelope is always dropped.
  const patterns::SymbolOptions symbols;
  const auto report = patterns::matchTrace(
      *source, [&](size_t p) { return patternFor(o.pattern, p); }, match, symbols);
  std::cout << (o.json ? patterns::matchJson(report) : patterns::matchText(report));
}

void setupMatch(CLI::App& app, const GlobalOptions&) {
  auto opts = std::make_shared<MatchCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "match",
      "Find the occurrences of a communication pattern, exactly or within edit distance K");
  cmd->add_option("TRACE", opts->trace, "Trace (any readable format)")->required();
  cmd->add_option("--pattern", opts->pattern,
                  "Built-in pattern: ring, mesh[:XxY], wavefront[:XxY], butterfly, tree-reduce, "
                  "tree-bcast, tree-allreduce, master-worker, all-to-all, pairwise, "
                  "mesh3d[:XxYxZ] (6 neighbours; mesh3d-18, mesh3d-26), gather, scatter; or a "
                  "pattern file")
      ->required();
  cmd->add_option("-k", opts->k, "Largest edit distance per rank (default 0: exact)");
  cmd->add_option("-n,--ngram", opts->ngram, "n-gram size of the filter (default 2)")
      ->check(CLI::Range(1u, 16u));
  cmd->add_flag("--json", opts->json,
                "JSON output; keys: pattern, parameters, max_distance, resolution, matches (rank, "
                "location, distance, repeats, first_event, last_event, first_time, last_time), "
                "occurrences (matches, ranks, complete, distance, first_time, last_time)");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records of the input");
  cmd->callback([opts] { runMatch(*opts); });
}

MTF_COMMAND(71, "match", setupMatch);

}  // namespace
}  // namespace mtf::cli
