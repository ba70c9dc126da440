#include "gen/gen_options.hpp"

#include <array>
#include <cmath>

#include "util/error.hpp"

namespace mtf::gen {

namespace {

constexpr std::array<std::string_view, 5> kKernelNames = {"wavefront", "ring", "butterfly", "halo",
                                                          "master-worker"};
constexpr uint32_t kMaxRanks = 1u << 20;
constexpr uint32_t kDefaultRanks = 16;

// Columns x rows, as square as the number allows (x <= y).
void chooseGrid(uint32_t ranks, uint32_t& x, uint32_t& y) {
  x = static_cast<uint32_t>(std::sqrt(static_cast<double>(ranks)));
  while (x > 1 && ranks % x != 0) --x;
  if (x == 0) x = 1;
  y = ranks / x;
}

void resolveGrid(GenOptions& o) {
  const bool gridKernel = o.kernel == Kernel::Wavefront || o.kernel == Kernel::Halo;
  if (!gridKernel || (o.gridX == 0 && o.gridY == 0)) {
    if (o.ranks == 0) o.ranks = kDefaultRanks;
    if (gridKernel) chooseGrid(o.ranks, o.gridX, o.gridY);
    return;
  }
  if (o.gridX == 0 || o.gridY == 0) throw UsageError("--grid: both dimensions must be at least 1");
  const uint64_t product = uint64_t{o.gridX} * o.gridY;
  if (o.ranks != 0 && product != o.ranks)
    throw UsageError("--grid " + std::to_string(o.gridX) + "x" + std::to_string(o.gridY) +
                     " holds " + std::to_string(product) + " ranks, but --ranks is " +
                     std::to_string(o.ranks));
  if (product > kMaxRanks) throw UsageError("--grid: more than 2^20 ranks");
  o.ranks = static_cast<uint32_t>(product);
}

// Twice the number of links between grid neighbours: the sum over ranks of their
// neighbour counts.
uint64_t gridLinkEnds(const GenOptions& o) {
  return 2 * (uint64_t{o.gridX - 1} * o.gridY + uint64_t{o.gridY - 1} * o.gridX);
}

}  // namespace

std::string_view kernelName(Kernel kernel) {
  return kKernelNames[static_cast<size_t>(kernel)];
}

bool kernelFromName(std::string_view name, Kernel& kernel) {
  for (size_t i = 0; i < kKernelNames.size(); ++i) {
    if (kKernelNames[i] == name) {
      kernel = static_cast<Kernel>(i);
      return true;
    }
  }
  return false;
}

void resolveAndValidate(GenOptions& o) {
  resolveGrid(o);
  if (o.ranks < 2) throw UsageError("--ranks: at least 2 ranks are needed");
  if (o.ranks > kMaxRanks) throw UsageError("--ranks: at most 1048576 ranks");
  if (o.kernel == Kernel::Butterfly && (o.ranks & (o.ranks - 1)) != 0)
    throw UsageError("--ranks: butterfly needs a power of two, not " + std::to_string(o.ranks));
  if (o.iterations < 1) throw UsageError("--iterations: at least 1");
  if (o.inner < 1) throw UsageError("--inner: at least 1");
  if (o.allreduceEvery < 1) throw UsageError("--allreduce-every: at least 1");
  if (!(o.noise >= 0.0 && o.noise <= 1.0)) throw UsageError("--noise: a probability in [0, 1]");
  if (o.pauseIteration != GenOptions::kNoPause) {
    if (o.kernel != Kernel::Wavefront && o.kernel != Kernel::Halo)
      throw UsageError("--pause: only the wavefront and halo kernels pause");
    if (o.pauseIteration >= o.iterations)
      throw UsageError("--pause: the iteration must be below --iterations");
    if (o.pauseUs < 1 || o.pauseUs > 3'600'000'000ull)
      throw UsageError("--pause: between 1 microsecond and an hour");
  }
  if (o.resolution < 1'000'000 || o.resolution > 1'000'000'000'000ull)
    throw UsageError("--resolution: between 1e6 and 1e12 ticks per second");
}

uint64_t expectedEventCount(const GenOptions& o) {
  return kernelEventCount(o) + (o.selfMessages ? kSelfMessageEvents * o.ranks : 0) +
         (hasPause(o) ? o.ranks : 0);
}

uint64_t kernelEventCount(const GenOptions& o) {
  const uint64_t p = o.ranks, it = o.iterations;
  switch (o.kernel) {
    case Kernel::Wavefront: {
      const uint64_t l = gridLinkEnds(o);
      return 24 * p + it * (10 * p + 8 * l + 2 * uint64_t{o.inner} * (3 * l + 2 * p)) +
             4 * p * (it / o.allreduceEvery);
    }
    case Kernel::Ring:
      return p * (24 + 10 * it);
    case Kernel::Butterfly: {
      uint64_t stages = 0;
      while ((uint64_t{1} << stages) < p) ++stages;
      return p * (24 + it * (4 + 10 * stages));
    }
    case Kernel::Halo:
      return 24 * p + it * (8 * p + 8 * gridLinkEnds(o));
    case Kernel::MasterWorker: {
      const uint64_t workers = p - 1, tasks = it * workers;
      return 24 * p + 14 * tasks + 6 * workers;
    }
  }
  return 0;
}

std::string eventCountFormula(Kernel kernel) {
  const std::string kSelfNote = " --self-messages adds 10P.";
  const std::string common =
      "P = ranks, I = iterations; every run adds 24 events per rank of setup (program begin, "
      "main, MPI_Init, MPI_Comm_size/rank, MPI_Bcast) and end (MPI_Allreduce, MPI_Barrier, "
      "MPI_Finalize, program end). Without --noise the trace holds exactly ";
  switch (kernel) {
    case Kernel::Wavefront:
      return common +
             "24P + I(10P + 8L + 2J(3L + 2P)) + 4P floor(I/K) events, with J = --inner, "
             "K = --allreduce-every, L = 2((X-1)Y + (Y-1)X) for the X x Y grid (the sum of "
             "every rank's neighbour count). 16 ranks, 249 iterations, 160 inner: "
             "14,175,456 events." +
             kSelfNote;
    case Kernel::Ring:
      return common + "P(24 + 10I) events." + kSelfNote;
    case Kernel::Butterfly:
      return common + "P(24 + I(4 + 10 log2 P)) events." + kSelfNote;
    case Kernel::Halo:
      return common + "24P + I(8P + 8L) events, L = 2((X-1)Y + (Y-1)X) for the X x Y grid." +
             kSelfNote;
    case Kernel::MasterWorker:
      return common + "24P + 14T + 6(P-1) events, T = I(P-1) tasks." + kSelfNote;
  }
  return common;
}

}  // namespace mtf::gen
