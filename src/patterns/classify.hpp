// Classification: which known communication patterns (library.hpp) the trace's
// communication patterns follow, with their parameters and where they occur.
//
// A communication pattern follows a known one when the sender -> receiver pairs of its
// process patterns are exactly those of the known pattern for some parameters (grid
// shape and sweep origin, ring direction, tree shape, ...). Butterfly additionally needs
// every rank to meet its partners in stage order (r XOR 1, r XOR 2, r XOR 4, ...), which
// tells it from a 2x2 halo exchange. Master/worker is recognized on the union of the
// patterns joined to one hub rank (workers answer in a data-dependent order, so each
// worker's exchange repeats on its own). A mesh exchange on the grid of a wavefront is
// that wavefront's boundary exchange (LU-like codes) and is reported as part of it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "patterns/comm.hpp"
#include "patterns/library.hpp"

namespace mtf::patterns {

struct KnownPatternUse {
  std::string pattern;                            // a built-in name
  std::map<std::string, std::string> parameters;  // e.g. grid=4x4, stages=3
  std::vector<size_t> commPatterns;               // indices of the communication patterns it covers
  std::vector<int64_t> ranks;
  uint64_t occurrences = 0;  // repetitions of the (most frequent) covered pattern
  uint64_t eventsCovered = 0;
  Tick firstTime = 0, lastTime = 0;
  // First event positions of the occurrences on the lowest involved rank.
  int64_t positionsRank = -1;
  std::vector<uint64_t> positions;
};

std::vector<KnownPatternUse> classify(const std::vector<CommPattern>& commPatterns,
                                      const std::vector<LocationPatterns>& locations,
                                      const SymbolTable& symbols, size_t worldSize);

}  // namespace mtf::patterns
