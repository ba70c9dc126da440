// Why a communication pattern is not a known one when it nearly is: the known pattern
// (built-in, on the pattern's rank group) whose sender -> receiver pairs differ least
// from the pattern's, with the pairs it misses and the ones it has in excess, e.g.
// "close to mesh3d grid=2x2x2 neighbours=6: 2 of 8 ranks miss a partner (3->7, 7->3)".
//
// Choices: only repeated point-to-point patterns none of whose ranks a recognized pattern
// already covers are explained, the three covering the most events; a known pattern is
// "close" when the differing pairs are at most a quarter of its own pairs (at least one).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "patterns/classify.hpp"
#include "patterns/comm.hpp"

namespace mtf::patterns {

struct NearMiss {
  std::string pattern;
  std::map<std::string, std::string> parameters;
  size_t commPattern = 0;      // index into the communication patterns
  std::vector<int64_t> ranks;  // the group it was compared on (world ranks)
  std::vector<std::pair<int64_t, int64_t>> missing, extra;  // world ranks
  std::vector<int64_t> ranksMissingPartner;  // ranks that lack a pair the pattern has
  std::string text;                          // the explanation, one line
};

std::vector<NearMiss> nearMisses(const std::vector<CommPattern>& commPatterns,
                                 const std::vector<KnownPatternUse>& known, size_t worldSize,
                                 size_t maxReported = 3);

// The closest known pattern to `edges` (local numbering 0..n-1) within the limit above.
bool closestKnown(const std::vector<std::pair<int64_t, int64_t>>& edges, size_t n, NearMiss& into);

}  // namespace mtf::patterns
