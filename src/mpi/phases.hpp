// How mtf-mpi's processes fail together. A *local* phase (reading, compacting, NLR on the
// process's share) may fail on one process: each reports its own error, then every
// process learns the worst exit code and all stop with it. A *collective* phase (the
// reductions, the parallel write) cannot be left by one process alone: an error there
// ends every process at once (MPI_Abort) with that error's code. An interrupt (Interrupted)
// leaves either phase at once on the process that notices it (interrupt_watch.hpp).
#pragma once

#include <functional>

#include "mpi/mpi_world.hpp"

namespace mtf::mpi {

// Runs `work` on every process; returns the largest exit code over all (0: all well).
int localPhase(World& world, const std::function<void()>& work);
// Runs `work`; on an error prints it and aborts every process.
void collectivePhase(World& world, const std::function<void()>& work);

}  // namespace mtf::mpi
