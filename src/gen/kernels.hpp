// The kernels: each writes the whole event stream of one rank through a RankEmitter.
// All ranks of a generation run the same kernel with the same options; the shared
// StepSchedule (timing.hpp) keeps their times consistent with each other.
#pragma once

#include <cstdint>

#include "gen/rank_emitter.hpp"
#include "gen/timing.hpp"

namespace mtf::gen {

// A 2D grid of ranks, rank = row * x + col (LU's layout: east = rank + 1, south = rank + x).
struct Grid {
  uint32_t x = 1, y = 1;
  enum Direction : uint8_t { West, East, North, South };
  static constexpr Direction kDirections[4] = {West, East, North, South};
  // The neighbour of `rank` in direction `d`, or -1 at the edge (no wrap-around).
  int64_t neighbour(uint32_t rank, Direction d) const {
    const uint32_t col = rank % x, row = rank / x;
    switch (d) {
      case West:
        return col > 0 ? int64_t{rank} - 1 : -1;
      case East:
        return col + 1 < x ? int64_t{rank} + 1 : -1;
      case North:
        return row > 0 ? int64_t{rank} - x : -1;
      case South:
        return row + 1 < y ? int64_t{rank} + x : -1;
    }
    return -1;
  }
  static bool horizontal(Direction d) { return d == West || d == East; }
};

// A time inside `w` between `lo` and `hi` thousandths of it, drawn by the rank.
inline Tick jittered(RankEmitter& e, const Window& w, uint64_t lo, uint64_t hi) {
  return w.at(e.rng().uniform(lo, hi));
}

// MPI_Init, MPI_Comm_size, MPI_Comm_rank and a broadcast of the parameters (12 events).
void emitSetup(RankEmitter& e, StepSchedule& schedule);
// Allreduce, barrier, MPI_Finalize, end of main (12 events).
void emitFinal(RankEmitter& e, StepSchedule& schedule);

// --pause: before iteration `it`, if it is the pause's, every rank flushes its trace
// buffer: the flushes start within the first tenth of one global step of the pause's
// length (flushes come in bursts, not all at once) and end within its last tenth.
void maybePause(RankEmitter& e, StepSchedule& schedule, uint32_t it);

void generateWavefront(RankEmitter& e);
void generateHalo(RankEmitter& e);
void generateRing(RankEmitter& e);
void generateButterfly(RankEmitter& e);
void generateMasterWorker(RankEmitter& e);

}  // namespace mtf::gen
