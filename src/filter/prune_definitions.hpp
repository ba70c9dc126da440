// The definitions of a trace cut down to some of its locations: what the kept locations'
// events refer to stays, the rest goes. Locations, their location groups and the system
// tree nodes above them, properties, metric instances and recorders of dropped locations
// go; communicator groups keep only their kept members, so the kept MPI ranks form a
// smaller world (renumbered 0..n-1 in their order) and every communicator lists its kept
// members in their order. Events' ranks are renumbered with newRank(). Location groups
// and system tree nodes are numbered 0, 1, 2, ... again (location ids stay as they are). Paraver's
// stored header, row and communicator lines describe every task: they go too, and the Paraver
// writer lays the kept threads out afresh.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/definitions.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::filter {

class PrunedDefinitions {
 public:
  PrunedDefinitions(const Definitions& defs, const std::unordered_set<LocationId>& kept);

  const Definitions& definitions() const { return pruned_; }
  // The rank that `rank` of `comm` (as used by the kept location `self`) has in the pruned
  // definitions, or -1 if that rank's location is not kept (or unknown).
  int64_t newRank(Ref comm, uint64_t rank, LocationId self) const;
  // The old definitions' view of ranks (world ranks, partner locations).
  const RankMap& oldRanks() const { return oldRanks_; }

 private:
  using IndexMap = std::vector<int64_t>;  // old index -> new index, -1: dropped
  void keepLocationsAndGroups(const Definitions& defs);
  void keepSystemTree(const Definitions& defs);
  void mapGroups(const Definitions& defs);
  void numberDensely(const Definitions& defs);
  void renumber(DefRecord& r) const;
  bool keeps(const DefRecord& r) const;
  DefRecord pruneGroup(const DefRecord& r) const;
  bool pruneCartCoordinate(const Definitions& defs, DefRecord& r) const;

  RankMap oldRanks_;
  Definitions pruned_;
  std::unordered_set<LocationId> locations_;
  std::unordered_set<uint64_t> groups_, nodes_;
  std::unordered_map<uint64_t, IndexMap> commLocations_;  // paradigm -> its index map
  std::unordered_map<uint64_t, IndexMap> groupMembers_;   // COMM_GROUP group -> member map
  std::unordered_map<Ref, uint64_t> groupOfComm_;
  std::unordered_map<uint64_t, uint64_t> newGroup_, newNode_;  // old id -> new id
};

}  // namespace mtf::filter
