// mtf-mpi: mtf's conversion and analyses on MPI processes, for traces too large for one
// machine. Run under mpirun: `mpirun -np N mtf-mpi convert IN -o OUT.mtf`. Every process
// parses the same command line; rank 0 alone prints results and usage errors.
#include <malloc.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <sstream>

#include "mpi/commands.hpp"
#include "util/error.hpp"

namespace {

using namespace mtf::mpi;

void addConvert(CLI::App& app, ConvertArgs& a, std::function<int(World&)>& run) {
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a trace into an MTF archive (.mtf), each process compacting its share of\n"
      "the locations; the archive is the one `mtf convert` writes (same `mtf dump`).");
  cmd->add_option("INPUT", a.input, "Input trace (OTF2, TAU, Paraver, MTF)")->required();
  cmd->add_option("-o,--output", a.output, "Output archive (.mtf)")->required();
  cmd->add_flag("--force", a.force, "Replace an existing output");
  cmd->add_flag("--lenient", a.lenient, "Skip bad input records (reported) instead of failing");
  cmd->add_flag_function(
      "--no-loops", [&a](int64_t) { a.loops = false; }, "Do not store loop nests");
  cmd->add_flag_function(
      "--no-model", [&a](int64_t) { a.model = false; }, "Do not store the program-wide model");
  cmd->add_flag("--report", a.report,
                "Print each process's phases (local, merge, write: ms), CPU time (ms), peak\n"
                "memory (kB) and "
                "bytes sent to other processes, one line per process, on stderr");
  cmd->callback([&] { run = [&a](World& w) { return runConvert(w, a); }; });
}

void addLoops(CLI::App& app, mtf::cli::LoopsOptions& o, std::function<int(World&)>& run) {
  CLI::App* cmd = app.add_subcommand(
      "loops", "The loop nests of each location, as `mtf loops` prints them (NLR per process)");
  mtf::cli::addLoopsOptions(cmd, o);
  cmd->callback([&] { run = [&o](World& w) { return runLoops(w, o); }; });
}

void addModel(CLI::App& app, ModelArgs& a, std::function<int(World&)>& run) {
  CLI::App* cmd = app.add_subcommand(
      "model", "The program-wide loop model, as `mtf model --recompute` prints it");
  cmd->add_option("TRACE", a.trace, "Trace to analyse (any readable format)")->required();
  cmd->add_flag("--json", a.json,
                "JSON: constructs with type, ranks, position; loops count and body");
  cmd->add_flag("--positions", a.positions, "Print each construct's position");
  cmd->add_flag("--lenient", a.lenient, "Skip bad records instead of failing");
  cmd->callback([&] { run = [&a](World& w) { return runModel(w, a); }; });
}

void addStats(CLI::App& app, StatsArgs& a, std::function<int(World&)>& run) {
  CLI::App* cmd = app.add_subcommand(
      "stats", "Compaction figures (MTF paper, Table 1), as `mtf stats` prints them");
  cmd->add_option("TRACE", a.trace, "Trace of any readable format")->required();
  cmd->add_flag("--json", a.json, "JSON output, with the keys of `mtf stats --json`");
  cmd->add_flag("--lenient", a.lenient, "Skip bad records of the input");
  cmd->callback([&] { run = [&a](World& w) { return runStats(w, a); }; });
}

}  // namespace

int main(int argc, char** argv) {
  // glibc gives each thread that allocates an arena of its own, which keeps what the thread
  // freed; a process has up to 7 threads (reading lanes, compaction, column coding, two
  // NLR) and a node runs several processes. Four arenas kept the peak of each process
  // 5 to 10% lower on the 1,024-rank wavefront at 4 processes, at the same speed.
  mallopt(M_ARENA_MAX, 4);
  World world(argc, argv);
  mtf::showWarnings(world.isRoot());
  CLI::App app{
      "mtf-mpi: mtf's conversion and analyses on MPI processes (mpirun -np N mtf-mpi ...).\n"
      "Exit status: 0 success, 1 usage error, 2 bad input, 3 I/O or resource failure."};
  app.require_subcommand(1);
  bool quiet = false;
  app.add_flag("-q,--quiet", quiet, "No progress messages on stderr");
  std::function<int(World&)> run;
  ConvertArgs convert;
  mtf::cli::LoopsOptions loops;
  ModelArgs model;
  StatsArgs stats;
  addConvert(app, convert, run);
  addLoops(app, loops, run);
  addModel(app, model, run);
  addStats(app, stats, run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;  // every process parses; rank 0 alone prints
    const int code = app.exit(e, out, err);
    if (world.isRoot()) std::fputs((out.str() + err.str()).c_str(), code == 0 ? stdout : stderr);
    return code == 0 ? 0 : static_cast<int>(mtf::ExitCode::Usage);
  }
  convert.quiet = quiet;
  return run(world);
}
