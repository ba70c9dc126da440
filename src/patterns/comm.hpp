// Communication patterns (paper, Algorithm 4): process patterns of different locations
// joined through the partner events of their sends and receives, plus patterns made only
// of collective operations joined across the processes that repeat them.
//
// Choices where the paper is vague: a process pattern p of rank a holding "S b" is
// joined to ONE pattern of rank b holding "R a": the one whose frequency is closest to
// p's (partners of a repeated exchange repeat equally often), then the shortest, so a
// loop body is joined to the partner's loop body and not to the enclosing iteration.
// Patterns of only collective operations are joined when their sequences are equal.
// The paper's "single partner events" (partner events outside every pattern) are not
// added. Ranking (the paper leaves it open): events covered, then frequency, then
// processes involved, all descending.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "patterns/detect.hpp"

namespace mtf::patterns {

struct PatternRef {
  uint32_t location = 0;  // index into the detector's locations()
  uint32_t pattern = 0;   // index into that location's patterns
  bool operator==(const PatternRef&) const = default;
};

struct CommPattern {
  std::vector<PatternRef> members;
  std::vector<int64_t> ranks;                      // world ranks involved, ascending
  std::vector<std::pair<int64_t, int64_t>> edges;  // sender -> receiver, unique, sorted
  uint64_t frequency = 0;                          // the smallest member frequency
  uint64_t eventsCovered = 0;                      // over all members
  bool collectiveOnly = false;
  Tick firstTime = 0, lastTime = 0;
};

struct AssembleOptions {
  size_t patternsPerLocation = 300;  // the most covering process patterns considered
};

std::vector<CommPattern> assembleCommPatterns(const std::vector<LocationPatterns>& locations,
                                              const SymbolTable& symbols,
                                              const AssembleOptions& options = {});

// The member of `cp` on `rank` covering the most events, or nullptr.
const ProcessPattern* mainMemberOf(const CommPattern& cp, int64_t rank,
                                   const std::vector<LocationPatterns>& locations);

}  // namespace mtf::patterns
