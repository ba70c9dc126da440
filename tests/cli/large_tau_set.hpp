// A TAU trace set written byte by byte (no mtf code involved), shaped like a PETSc
// application's: every node defines hundreds of regions with long names, so each
// events.<node>.edf is hundreds of KB, and the nodes exchange messages in a ring.
#pragma once

#include <cstdint>
#include <string>

namespace mtf::test {

struct LargeTauSet {
  uint32_t nodes = 4;
  uint32_t regions = 700;      // regions per node, each entered and left once
  uint32_t nameLength = 800;   // bytes of each region name
  uint32_t messageEvery = 10;  // every k-th region sends to the next node and receives
};

struct LargeTauCounts {
  uint64_t sends = 0;
  uint64_t receives = 0;
  uint64_t regionsEntered = 0;
};

// Writes tautrace.<node>.0.0.trc (24-byte little-endian records) and events.<node>.edf
// into `dir`; returns what it wrote.
LargeTauCounts writeLargeTauSet(const std::string& dir, const LargeTauSet& shape);

}  // namespace mtf::test
