// MPI ranks the OTF2 way. A COMM_LOCATIONS group lists the locations of all ranks (its
// index is the world rank); a COMM_GROUP group lists world ranks (its index is the rank
// within the communicator); a Comm definition points at a COMM_GROUP (or COMM_SELF).
// Every reader and generator defines communicators like this, so every stage can turn
// the `rank` fields of MPI events into locations and back.
#pragma once

#include <unordered_map>
#include <vector>

#include "model/definitions.hpp"

namespace mtf {

// Defines MPI_COMM_WORLD over `rankLocations` (index = rank); returns the Comm ref.
Ref defineMpiWorld(DefinitionBuilder& builder, const std::vector<LocationId>& rankLocations);
// Defines a sub-communicator of the world made of `worldRanks` (index = rank in it).
Ref defineMpiComm(DefinitionBuilder& builder, std::string_view name,
                  const std::vector<uint64_t>& worldRanks, Ref parent = kUndefinedRef);

class RankMap {
 public:
  explicit RankMap(const Definitions& defs);
  // The location of `rank` within `comm`, or kUndefinedId if unknown.
  LocationId locationOf(Ref comm, uint64_t rank) const;
  // The world rank of `location`, or -1 if it is not an MPI rank.
  int64_t worldRank(LocationId location) const;
  // The rank of `location` within `comm`, or -1.
  int64_t rankIn(Ref comm, LocationId location) const;
  size_t worldSize() const { return world_.size(); }

 private:
  std::vector<LocationId> world_;                             // world rank -> location
  std::unordered_map<LocationId, uint64_t> worldRankOf_;      // location -> world rank
  std::unordered_map<Ref, std::vector<uint64_t>> commRanks_;  // comm -> world ranks
  std::unordered_map<Ref, bool> commSelf_;
};

}  // namespace mtf
