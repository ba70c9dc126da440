// What to generate: the kernel and its parameters (the options of mtf-gen).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mtf::gen {

enum class Kernel : uint8_t { Wavefront, Ring, Butterfly, Halo, MasterWorker };

struct GenOptions {
  Kernel kernel = Kernel::Wavefront;
  uint32_t ranks = 0;  // 0: the grid's size if --grid is given, else 16
  uint32_t gridX = 0;  // columns of the rank grid (wavefront, halo); 0 = chosen from ranks
  uint32_t gridY = 0;  // rows of the rank grid
  uint32_t iterations = 10;
  uint32_t inner = 8;           // wavefront: inner iterations of each sweep
  uint32_t allreduceEvery = 1;  // wavefront: an allreduce every k outer iterations
  uint64_t seed = 1;
  double noise = 0.0;                   // probability of a random unrelated call after each call
  uint64_t resolution = 1'000'000'000;  // ticks per second
  bool splitComms = false;    // messages on sub-communicators (comm_layout.hpp), not the world
  bool selfMessages = false;  // each rank sends itself one message on MPI_COMM_SELF at setup
  // --pause ITER:MICROSECONDS (wavefront, halo): before outer iteration pauseIteration
  // (from 0) every rank flushes its trace buffer for about pauseUs microseconds.
  uint32_t pauseIteration = kNoPause;
  uint64_t pauseUs = 0;
  static constexpr uint32_t kNoPause = 0xFFFFFFFFu;
};

// Events of a pause: one BufferFlush per rank.
inline bool hasPause(const GenOptions& o) {
  return o.pauseIteration != GenOptions::kNoPause && o.pauseIteration < o.iterations;
}

std::string_view kernelName(Kernel kernel);
bool kernelFromName(std::string_view name, Kernel& kernel);

// Fills gridX/gridY when they are 0 (a near-square grid, gridX <= gridY) and checks every
// option; throws UsageError naming the offending option.
void resolveAndValidate(GenOptions& options);

// The number of events the options produce without noise (the formula of the help text).
uint64_t expectedEventCount(const GenOptions& options);
// The same without the events of --self-messages.
uint64_t kernelEventCount(const GenOptions& options);
// Events of the one message a rank sends itself with --self-messages: Irecv, Isend and
// Waitall, each Enter and Leave, plus IrecvRequest, Isend, Irecv and IsendComplete.
inline constexpr uint64_t kSelfMessageEvents = 10;
// The formula as text, for --help.
std::string eventCountFormula(Kernel kernel);

}  // namespace mtf::gen
