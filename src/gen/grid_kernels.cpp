// Kernels on a 2D grid of ranks: the LU-like wavefront and the nearest-neighbour halo.
#include "gen/kernels.hpp"

namespace mtf::gen {

namespace {

// Wavefront sizes follow NPB LU class C (162^3 points, 5 doubles per point): a sweep
// message carries one line of the rank's block face, the boundary exchange a few planes.
constexpr uint64_t kProblemSide = 162;
constexpr uint64_t kSlotNs = 120'000;      // one pipeline slot of a sweep
constexpr uint64_t kExchangeNs = 150'000;  // the boundary exchange of one iteration
constexpr uint64_t kAllreduceNs = 40'000;
constexpr uint64_t kResidualBytes = 40;  // five doubles: the residual norms

struct Neighbourhood {
  Grid grid;
  uint32_t rank;
  int64_t at(Grid::Direction d) const { return grid.neighbour(rank, d); }
  // Cells of this rank's block along the face shared with a neighbour in direction d.
  uint64_t faceCells(Grid::Direction d) const {
    const uint64_t across = Grid::horizontal(d) ? grid.y : grid.x;
    return (kProblemSide + across - 1) / across;
  }
};

uint64_t sweepBytes(const Neighbourhood& n, Grid::Direction d) {
  return 40 * n.faceCells(d);
}
uint64_t exchangeBytes(const Neighbourhood& n, Grid::Direction d) {
  return 160 * n.faceCells(d);
}

// One sweep: inner steps pipelined across the grid. The rank on anti-diagonal `diag`
// (counted from the sweep's starting corner) does step k in global slot k + diag: it
// receives what its upstream neighbours sent in the slot before, computes, and sends
// downstream. Slots are global steps, so upstream sends always precede the receives.
void sweep(RankEmitter& e, StepSchedule& schedule, const Neighbourhood& n, bool forward) {
  const GenOptions& o = e.context().options;
  const uint32_t col = n.rank % o.gridX, row = n.rank / o.gridX;
  const uint32_t diag = forward ? row + col : (o.gridY - 1 - row) + (o.gridX - 1 - col);
  const Grid::Direction up[2] = {forward ? Grid::West : Grid::East,
                                 forward ? Grid::North : Grid::South};
  const Grid::Direction down[2] = {forward ? Grid::East : Grid::West,
                                   forward ? Grid::South : Grid::North};
  const uint32_t tagBase = forward ? 1 : 3;  // +0 east-west, +1 north-south
  const uint32_t slots = o.inner + o.gridX + o.gridY - 2;
  e.enter(forward ? RegionId::SweepForward : RegionId::SweepBackward);
  for (uint32_t slot = 0; slot < slots; ++slot) {
    const Window w = schedule.next(kSlotNs);
    if (slot < diag || slot >= diag + o.inner) continue;
    for (Grid::Direction d : up) {
      if (n.at(d) < 0) continue;
      const uint64_t bytes = sweepBytes(n, d);
      e.recv(static_cast<uint32_t>(n.at(d)), tagBase + !Grid::horizontal(d), bytes,
             jittered(e, w, 0, 40) + e.ns(latencyNs(bytes)));
    }
    e.waitUntil(w.start);
    e.computeUntil(jittered(e, w, 600, 850));
    for (Grid::Direction d : down) {
      if (n.at(d) < 0) continue;
      e.send(static_cast<uint32_t>(n.at(d)), tagBase + !Grid::horizontal(d), sweepBytes(n, d));
    }
  }
  e.leave(forward ? RegionId::SweepForward : RegionId::SweepBackward);
}

// Nonblocking exchange with every neighbour inside one global step: receives posted
// first, sends posted early in the step, messages arrive after the middle of it.
void exchangeStep(RankEmitter& e, const Window& w, const Neighbourhood& n, uint32_t tagEW,
                  uint64_t (*bytesOf)(const Neighbourhood&, Grid::Direction)) {
  for (Grid::Direction d : Grid::kDirections) {
    if (n.at(d) < 0) continue;
    const uint64_t bytes = bytesOf(n, d);
    e.irecv(static_cast<uint32_t>(n.at(d)), tagEW + !Grid::horizontal(d), bytes,
            jittered(e, w, 480, 600) + e.ns(latencyNs(bytes)));
  }
  e.waitUntil(jittered(e, w, 30, 150));
  for (Grid::Direction d : Grid::kDirections) {
    if (n.at(d) < 0) continue;
    e.isend(static_cast<uint32_t>(n.at(d)), tagEW + !Grid::horizontal(d), bytesOf(n, d));
  }
  e.waitall();
}

}  // namespace

void maybePause(RankEmitter& e, StepSchedule& schedule, uint32_t it) {
  const GenOptions& o = e.context().options;
  if (it != o.pauseIteration) return;
  const Window w = schedule.exact(e.ns(o.pauseUs * 1000));
  e.waitUntil(jittered(e, w, 0, 100));
  e.bufferFlush(jittered(e, w, 900, 1000));
  e.waitUntil(w.end());
}

void generateWavefront(RankEmitter& e) {
  const GenOptions& o = e.context().options;
  const Neighbourhood n{{o.gridX, o.gridY}, e.rank()};
  StepSchedule schedule(o.seed, e.context().scale, 0);
  emitSetup(e, schedule);
  for (uint32_t it = 0; it < o.iterations; ++it) {
    maybePause(e, schedule, it);
    e.enter(RegionId::Iteration);
    sweep(e, schedule, n, true);
    sweep(e, schedule, n, false);
    e.enter(RegionId::Exchange);
    exchangeStep(e, schedule.next(kExchangeNs), n, 5, exchangeBytes);
    e.leave(RegionId::Exchange);
    if ((it + 1) % o.allreduceEvery == 0) {
      const Window w = schedule.next(kAllreduceNs);
      e.collective(RegionId::MpiAllreduce, CollectiveOp::Allreduce, kNoRoot,
                   o.ranks * kResidualBytes, o.ranks * kResidualBytes, jittered(e, w, 600, 900));
    }
    e.leave(RegionId::Iteration);
  }
  emitFinal(e, schedule);
}

// Halo: compute, then exchange block faces with the (up to four) grid neighbours.
// The block is 2048 x 2048 doubles split over the grid.
namespace {
constexpr uint64_t kHaloComputeNs = 200'000, kHaloExchangeNs = 60'000;
uint64_t haloBytes(const Neighbourhood& n, Grid::Direction d) {
  const uint64_t across = Grid::horizontal(d) ? n.grid.y : n.grid.x;
  return 8 * ((2048 + across - 1) / across);
}
}  // namespace

void generateHalo(RankEmitter& e) {
  const GenOptions& o = e.context().options;
  const Neighbourhood n{{o.gridX, o.gridY}, e.rank()};
  StepSchedule schedule(o.seed, e.context().scale, 0);
  emitSetup(e, schedule);
  for (uint32_t it = 0; it < o.iterations; ++it) {
    maybePause(e, schedule, it);
    e.enter(RegionId::Iteration);
    const Window work = schedule.next(kHaloComputeNs);
    e.computeUntil(jittered(e, work, 550, 950));
    e.enter(RegionId::Exchange);
    exchangeStep(e, schedule.next(kHaloExchangeNs), n, 1, haloBytes);
    e.leave(RegionId::Exchange);
    e.leave(RegionId::Iteration);
  }
  emitFinal(e, schedule);
}

}  // namespace mtf::gen
