// The program-wide model over mtf-mpi's processes: each process turns its locations' NLR
// nests into the leaves it holds of buildProgramModel's reduction (program/build_model.hpp)
// and merges what it can; partial reductions go up to rank 0 (model_reduction.hpp), which
// groups the result. The model equals the serial one: same leaves, same tree.
#pragma once

#include <vector>

#include "mpi/mpi_world.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/program_model.hpp"

namespace mtf::mpi {

// `mine`: NlrSink::results() of this process's share (with the program model's options).
// The complete model on rank 0; an empty one elsewhere.
program::ProgramModel reduceProgramModel(World& world, std::vector<nlr::LocationLoops> mine,
                                         const Definitions& defs);

}  // namespace mtf::mpi
