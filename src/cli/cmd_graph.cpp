// mtf graph TRACE -o OUT.graphml: the program's Parallel Task Activity Graph (seed 004) as
// GraphML or Graphviz DOT; --paths FROM TO prints the causal paths between two activities.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <unordered_map>

#include "api/stored_loops.hpp"
#include "cli/command.hpp"
#include "cli/common.hpp"
#include "tag/causal_paths.hpp"
#include "tag/graph_writer.hpp"
#include "tag/ptag.hpp"
#include "tag/tag_builder.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/safe_output.hpp"

namespace mtf::cli {
namespace {

struct GraphOptions {
  std::string trace;
  std::string output;
  bool perProcess = false;
  bool foldRanks = false;
  bool dot = false;
  bool force = false;
  bool lenient = false;
  std::vector<std::string> paths;  // FROM TO
};

void writeGraph(const GraphOptions& o, const tag::ActivityGraph& graph, bool quiet) {
  if (samePath(o.trace, o.output)) throw UsageError(o.output + ": the output is the input");
  const tag::Ptag ptag = tag::buildPtag(graph, o.foldRanks);
  catchInterrupts();
  SafeOutput out(o.output, o.force);
  {
    std::ofstream file(out.stagingPath(), std::ios::binary);
    if (!file) throw IoError(o.output, "cannot create the file");
    const tag::GraphWriteOptions options{o.perProcess};
    if (o.dot)
      tag::writeDot(file, graph, ptag, options);
    else
      tag::writeGraphml(file, graph, ptag, options);
    file.flush();
    if (!file) throw IoError(o.output, "write failed");
  }
  out.commit();
  if (!quiet)
    std::fprintf(stderr, "mtf: %zu nodes, %zu edges written to %s\n", ptag.nodes.size(),
                 ptag.edges.size(), o.output.c_str());
}

// How often the `period` steps at `at` repeat back to back.
size_t repeats(const std::vector<tag::PathId>& steps, size_t at, size_t period) {
  size_t n = 1;
  while (
      at + (n + 1) * period <= steps.size() &&
      std::equal(steps.begin() + at, steps.begin() + at + period, steps.begin() + at + n * period))
    ++n;
  return n;
}

// One step per line; a block of up to 8 steps repeated back to back is printed once with
// "x N" (the shortest such period first), so a loop's iterations read as one block.
void printSteps(const tag::CallPaths& names, const std::vector<tag::PathId>& steps) {
  constexpr size_t kMaxPeriod = 8;
  for (size_t i = 0; i < steps.size();) {
    size_t period = 1, n = 1;
    for (size_t p = 1; p <= kMaxPeriod && n == 1; ++p)
      if (size_t r = repeats(steps, i, p); r > 1) period = p, n = r;
    for (size_t k = 0; k < period; ++k) {
      std::cout << "  " << (period > 1 ? (k == 0 ? "[ " : "  ") : "") << names.text(steps[i + k]);
      if (k + 1 == period && period > 1) std::cout << " ]";
      if (k + 1 == period && n > 1) std::cout << " x" << n;
      std::cout << '\n';
    }
    i += period * n;
  }
}

void printPaths(const GraphOptions& o, const tag::CausalPaths& found,
                const tag::ActivityGraph& graph) {
  const std::vector<tag::CausalPath> paths = found.results();
  uint64_t total = 0;
  for (const tag::CausalPath& p : paths) total += p.count;
  std::cout << "causal paths from " << o.paths[0] << " to " << o.paths[1] << ": " << paths.size()
            << " distinct, " << total << " in all";
  if (found.unfinished()) std::cout << ", " << found.unfinished() << " not finished";
  if (found.tooLong()) std::cout << ", " << found.tooLong() << " too long (dropped)";
  std::cout << '\n';
  for (size_t i = 0; i < paths.size(); ++i) {
    const tag::CausalPath& p = paths[i];
    std::cout << "path " << (i + 1) << ": count " << p.count << ", total "
              << decimalSeconds(p.totalTicks, graph.resolution) << " s, " << p.steps.size()
              << " activities";
    if (!p.ranks.empty()) std::cout << ", ranks " << tag::rankRanges(p.ranks);
    std::cout << '\n';
    printSteps(graph.paths, p.steps);
  }
  flushStdout();
}

// The loop nests of an MTF file ("nlr.loops": every event, trace order; those the writer
// left out recomputed), by location; none for other formats (NLR's loops are known only
// after a location's last event, too late for a one-pass stage).
std::unordered_map<LocationId, nlr::LoopModel> storedLoops(const std::string& path) {
  std::unordered_map<LocationId, nlr::LoopModel> loops;
  if (auto stored = api_impl::storedLoops(path, std::nullopt))
    for (nlr::LocationLoops& l : stored->loops) loops[l.location] = std::move(l.model);
  return loops;
}

void runGraph(const GraphOptions& o, const GlobalOptions& global) {
  if (o.output.empty() && o.paths.empty())
    throw UsageError("graph: give -o OUT or --paths FROM TO");
  if (o.perProcess && o.foldRanks)
    throw UsageError("--per-process and --fold-ranks exclude each other");
  auto source = openInput(o.trace, o.lenient);
  tag::TagBuilder builder;
  builder.setLoops(storedLoops(o.trace));
  std::optional<tag::CausalPaths> paths;
  if (!o.paths.empty()) {
    paths.emplace(builder.graph().paths, o.paths[0], o.paths[1]);
    builder.setObserver(&*paths);
  }
  source->read(builder);
  if (builder.loopMismatches() && !global.quiet)
    std::fprintf(stderr,
                 "mtf: warning: %s: the stored loops of %llu locations do not match their "
                 "events; their loop markers stop there\n",
                 o.trace.c_str(), static_cast<unsigned long long>(builder.loopMismatches()));
  if (paths && !paths->fromSeen())
    throw InputError(o.trace, "", "no activity named '" + o.paths[0] + "'");
  if (!o.output.empty()) writeGraph(o, builder.graph(), global.quiet);
  if (paths) printPaths(o, *paths, builder.graph());
}

void setupGraph(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<GraphOptions>();
  CLI::App* cmd = app.add_subcommand(
      "graph",
      "Build the Task Activity Graph of each process (MPI calls by call path as nodes,\n"
      "the computation between them as edges, with count/total/min/max/stddev of time),\n"
      "join them by message, collective and completion edges into the program's PTAG,\n"
      "and write it as GraphML (or DOT). --paths FROM TO prints the distinct sequences\n"
      "of activities each process ran from FROM to TO (names or call paths; START and\n"
      "END are the markers of a process's first and last event).");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_option("-o,--output", opts->output, "GraphML (or with --dot: Graphviz) file");
  cmd->add_flag("--per-process", opts->perProcess,
                "One graph per process (its TAG) instead of one for the program");
  cmd->add_flag("--fold-ranks", opts->foldRanks,
                "One node per call path over all ranks, with a 'ranks' attribute");
  cmd->add_flag("--dot", opts->dot, "Write Graphviz DOT instead of GraphML");
  cmd->add_option("--paths", opts->paths, "FROM TO: causal paths between two activities")
      ->expected(2);
  cmd->add_flag("--force", opts->force, "Replace an existing output");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts, &global] { runGraph(*opts, global); });
}

MTF_COMMAND(75, "graph", setupGraph);

}  // namespace
}  // namespace mtf::cli
