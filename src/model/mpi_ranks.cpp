#include "model/mpi_ranks.hpp"

namespace mtf {

Ref defineMpiWorld(DefinitionBuilder& builder, const std::vector<LocationId>& rankLocations) {
  builder.group("", static_cast<uint8_t>(GroupType::CommLocations), Paradigm::Mpi, rankLocations);
  std::vector<uint64_t> ranks(rankLocations.size());
  for (size_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
  const Ref group =
      builder.group("", static_cast<uint8_t>(GroupType::CommGroup), Paradigm::Mpi, ranks);
  return builder.comm("MPI_COMM_WORLD", group);
}

Ref defineMpiComm(DefinitionBuilder& builder, std::string_view name,
                  const std::vector<uint64_t>& worldRanks, Ref parent) {
  const Ref group =
      builder.group("", static_cast<uint8_t>(GroupType::CommGroup), Paradigm::Mpi, worldRanks);
  return builder.comm(name, group, parent);
}

Ref defineMpiSelfGroup(DefinitionBuilder& builder) {
  return builder.group("", static_cast<uint8_t>(GroupType::CommSelf), Paradigm::Mpi, {});
}

Ref defineMpiSelfComm(DefinitionBuilder& builder, std::string_view name, Ref selfGroup,
                      Ref parent) {
  return builder.comm(name, selfGroup, parent);
}

std::vector<bool> mpiRegionFlags(const Definitions& defs) {
  std::vector<bool> mpi;
  for (const DefRecord& r : defs.records()) {
    const uint64_t id = r.fields.empty() ? kUndefinedId : r.fields[0];
    if (r.kind != DefKind::Region || id >= (uint64_t{1} << 24)) continue;
    if (id >= mpi.size()) mpi.resize(id + 1, false);
    mpi[id] = r.field("paradigm") == static_cast<uint64_t>(Paradigm::Mpi);
  }
  return mpi;
}

RankMap::RankMap(const Definitions& defs) {
  for (const DefRecord& r : defs.records()) {
    if (r.kind == DefKind::Group &&
        r.field("type") == static_cast<uint64_t>(GroupType::CommLocations) &&
        r.field("paradigm") == static_cast<uint64_t>(Paradigm::Mpi)) {
      world_ = defs.groupMembers(r.fields[0]);
    }
  }
  for (size_t i = 0; i < world_.size(); ++i) worldRankOf_[world_[i]] = i;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Comm) continue;
    const Ref comm = static_cast<Ref>(r.fields[0]);
    const DefRecord* group = defs.find(DefKind::Group, r.field("group"));
    if (!group) continue;
    if (group->field("type") == static_cast<uint64_t>(GroupType::CommSelf)) {
      commSelf_[comm] = true;
      continue;
    }
    // OTF2 allows only these two; members of any other group are not world ranks.
    if (group->field("type") != static_cast<uint64_t>(GroupType::CommGroup)) continue;
    std::vector<int64_t>& ranks = commRanks_[comm];
    for (const uint64_t world : defs.groupMembers(group->fields[0]))
      ranks.push_back(world < world_.size() ? static_cast<int64_t>(world) : int64_t{-1});
  }
}

CommView RankMap::view(Ref comm, LocationId self) const {
  return CommView(members(comm), isSelf(comm), worldRank(self));
}

LocationId RankMap::locationOf(Ref comm, uint64_t rank, LocationId self) const {
  return locationOfWorldRank(worldRankOf(comm, rank, self));
}

const std::vector<int64_t>* RankMap::members(Ref comm) const {
  const auto it = commRanks_.find(comm);
  return it == commRanks_.end() ? nullptr : &it->second;
}

int64_t RankMap::worldRank(LocationId location) const {
  const auto it = worldRankOf_.find(location);
  return it == worldRankOf_.end() ? -1 : static_cast<int64_t>(it->second);
}

int64_t RankMap::rankIn(Ref comm, LocationId location) const {
  const int64_t world = worldRank(location);
  if (world < 0) return -1;
  if (isSelf(comm)) return 0;
  const std::vector<int64_t>* ranks = members(comm);
  if (!ranks) return -1;
  for (size_t i = 0; i < ranks->size(); ++i)
    if ((*ranks)[i] == world) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace mtf
