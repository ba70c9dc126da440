// The process groups communication patterns are classified on. A trace may hold ranks
// that never exchange messages (PROFET's LULESH trace has 8 MPI ranks and 12 counter
// tasks) or sub-communicators that never talk to each other (sst-macro's even and odd
// ranks): a known pattern is then looked for on the ranks that do communicate, or on one
// sub-group, with the group's ranks renumbered 0..n-1 in ascending order.
//
// The groups are the connected components of the union of the point-to-point edges of
// the repeated communication patterns; the active ranks are all ranks of those edges.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "patterns/comm.hpp"

namespace mtf::patterns {

struct RankGroup {
  std::vector<int64_t> ranks;                // world ranks, ascending; local index = position
  int64_t localOf(int64_t worldRank) const;  // -1 if not in the group
};

struct GroupIndex {
  std::vector<int64_t> active;    // ranks of every repeated point-to-point edge, ascending
  std::vector<RankGroup> groups;  // connected components, by lowest rank
  const RankGroup* groupOf(int64_t worldRank) const;
};

// Communication patterns used: not collective-only, repeated at least twice.
bool classifiable(const CommPattern& cp);
GroupIndex groupIndex(const std::vector<CommPattern>& commPatterns);

// The ranks of cp's members and of its edges, ascending.
std::vector<int64_t> rankSetOf(const CommPattern& cp);

// cp's edges in the local numbering of g; false if an edge leaves g.
bool localEdges(const CommPattern& cp, const RankGroup& g,
                std::vector<std::pair<int64_t, int64_t>>& out);

// "0-7", "0,2,4,6,8": ranks as ranges.
std::string ranksText(const std::vector<int64_t>& ranks);

}  // namespace mtf::patterns
