// MPI ranks the OTF2 way. A COMM_LOCATIONS group lists the locations of all ranks (its
// index is the world rank); a COMM_GROUP group lists world ranks (its index is the rank
// within the communicator); a Comm definition points at a COMM_GROUP or at a COMM_SELF
// group. A COMM_SELF group has no members: its one rank (0) is whichever location uses
// it. Score-P defines MPI_COMM_SELF like that, and also every communicator an
// MPI_Comm_split leaves with a single member.
// Every reader and generator defines communicators like this, and every stage turns the
// `rank` fields of MPI events into world ranks and locations here, and nowhere else.
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
// Defines MPI's COMM_SELF group (one per trace: OTF2 readers warn about a second one).
Ref defineMpiSelfGroup(DefinitionBuilder& builder);
// Defines a communicator over that group (MPI_COMM_SELF, or a split's singleton).
Ref defineMpiSelfComm(DefinitionBuilder& builder, std::string_view name, Ref selfGroup,
                      Ref parent = kUndefinedRef);

// Whether each region is an MPI call (paradigm MPI), by region id: the regions numbered below
// 2^24 (ids are dense; a vector indexed by id), sized to the largest such id + 1.
std::vector<bool> mpiRegionFlags(const Definitions& defs);

// One communicator as seen by one of its members: turns ranks in it into world ranks.
// Cheap to copy; valid as long as the RankMap it came from.
class CommView {
 public:
  CommView() = default;
  CommView(const std::vector<int64_t>* members, bool self, int64_t ownWorldRank)
      : members_(members), self_(self), own_(ownWorldRank) {}
  // The world rank of `rank` in the communicator, or -1 if unknown.
  int64_t worldRankOf(uint64_t rank) const {
    if (members_) return rank < members_->size() ? (*members_)[rank] : int64_t{-1};
    return self_ && rank == 0 ? own_ : int64_t{-1};
  }

 private:
  const std::vector<int64_t>* members_ = nullptr;
  bool self_ = false;
  int64_t own_ = -1;
};

class RankMap {
 public:
  explicit RankMap(const Definitions& defs);
  // The location of `rank` within `comm` as used by the location `self` (the location
  // whose event names the rank), or kUndefinedId if unknown.
  LocationId locationOf(Ref comm, uint64_t rank, LocationId self) const;
  // The world rank of `rank` within `comm` as used by `self`, or -1 if unknown.
  int64_t worldRankOf(Ref comm, uint64_t rank, LocationId self) const {
    return view(comm, self).worldRankOf(rank);
  }
  // `comm` as seen by `self`.
  CommView view(Ref comm, LocationId self) const;
  // The world rank of `location`, or -1 if it is not an MPI rank.
  int64_t worldRank(LocationId location) const;
  // The rank of `location` within `comm`, or -1.
  int64_t rankIn(Ref comm, LocationId location) const;
  // The members' world ranks (-1: outside the world) of a communicator with a member
  // list; nullptr for COMM_SELF and unknown communicators.
  const std::vector<int64_t>* members(Ref comm) const;
  bool isSelf(Ref comm) const { return commSelf_.count(comm) > 0; }
  size_t worldSize() const { return world_.size(); }
  // The location of world rank `rank`, or kUndefinedId.
  LocationId locationOfWorldRank(int64_t rank) const {
    return rank >= 0 && static_cast<size_t>(rank) < world_.size() ? world_[rank] : kUndefinedId;
  }

 private:
  std::vector<LocationId> world_;                            // world rank -> location
  std::unordered_map<LocationId, uint64_t> worldRankOf_;     // location -> world rank
  std::unordered_map<Ref, std::vector<int64_t>> commRanks_;  // comm -> world ranks
  std::unordered_map<Ref, bool> commSelf_;
};

}  // namespace mtf
