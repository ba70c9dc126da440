// mtf-mpi's commands: each returns the exit code every process ends with.
#pragma once

#include <string>

#include "cli/loops_options.hpp"
#include "mpi/mpi_world.hpp"

namespace mtf::mpi {

struct ConvertArgs {
  std::string input;
  std::string output;
  bool force = false;
  bool lenient = false;
  bool loops = true;  // store the loop nests (--no-loops)
  bool model = true;  // store the program model (--no-model)
  bool quiet = false;
  bool report = false;  // each process's phase times, peak memory and bytes sent
};
int runConvert(World& world, const ConvertArgs& a);

int runLoops(World& world, const cli::LoopsOptions& o);

struct ModelArgs {
  std::string trace;
  bool json = false;
  bool positions = false;
  bool lenient = false;
};
int runModel(World& world, const ModelArgs& a);

struct StatsArgs {
  std::string trace;
  bool json = false;
  bool lenient = false;
};
int runStats(World& world, const StatsArgs& a);

}  // namespace mtf::mpi
