#include "filter/prune_definitions.hpp"

#include <algorithm>
#include <cstddef>

namespace mtf::filter {
namespace {

constexpr uint64_t kGroupTypeLocations = 1;
constexpr uint64_t kGroupTypeCommLocations = 4;
constexpr uint64_t kGroupTypeCommGroup = 5;
// OTF2_MetricScope
constexpr uint64_t kScopeLocation = 0, kScopeLocationGroup = 1, kScopeSystemTreeNode = 2;

const char* const kParaverLayoutProperties[] = {"paraver.header", "paraver.row",
                                                "paraver.communicators"};

std::vector<uint64_t> membersOf(const DefRecord& r) {
  const size_t fixed = schemaOf(DefKind::Group).fixedCount;
  return {r.fields.begin() + static_cast<std::ptrdiff_t>(fixed), r.fields.end()};
}

DefRecord withMembers(const DefRecord& r, const std::vector<uint64_t>& members) {
  const size_t fixed = schemaOf(DefKind::Group).fixedCount;
  DefRecord out = r;
  out.fields.resize(fixed);
  out.fields[fixed - 1] = members.size();  // count
  out.fields.insert(out.fields.end(), members.begin(), members.end());
  return out;
}

}  // namespace

PrunedDefinitions::PrunedDefinitions(const Definitions& defs,
                                     const std::unordered_set<LocationId>& kept)
    : oldRanks_(defs), locations_(kept) {
  keepLocationsAndGroups(defs);
  keepSystemTree(defs);
  mapGroups(defs);
  pruned_.clock = defs.clock;
  pruned_.info = defs.info;
  for (const char* key : kParaverLayoutProperties) pruned_.info.properties.erase(key);
  numberDensely(defs);
  for (const DefRecord& r : defs.records()) {
    if (!keeps(r)) continue;
    if (r.kind == DefKind::Group) {
      pruned_.add(pruneGroup(r));
    } else if (r.kind == DefKind::CartCoordinate) {
      DefRecord copy = r;
      if (pruneCartCoordinate(defs, copy)) pruned_.add(std::move(copy));
    } else {
      DefRecord copy = r;
      renumber(copy);
      pruned_.add(std::move(copy));
    }
  }
}

// OTF2's readers expect location groups and system tree nodes numbered 0, 1, 2, ... (they
// warn about "out of order" definitions otherwise): the kept ones are numbered again, in
// the order of their old ids.
void PrunedDefinitions::numberDensely(const Definitions& defs) {
  std::vector<uint64_t> groups, nodes;
  for (const DefRecord& r : defs.records()) {
    if (r.kind == DefKind::LocationGroup && groups_.count(r.fields[0]))
      groups.push_back(r.fields[0]);
    if (r.kind == DefKind::SystemTreeNode && nodes_.count(r.fields[0]))
      nodes.push_back(r.fields[0]);
  }
  std::sort(groups.begin(), groups.end());
  std::sort(nodes.begin(), nodes.end());
  for (size_t i = 0; i < groups.size(); ++i) newGroup_[groups[i]] = i;
  for (size_t i = 0; i < nodes.size(); ++i) newNode_[nodes[i]] = i;
}

void PrunedDefinitions::renumber(DefRecord& r) const {
  const auto field = [&](const char* name, const std::unordered_map<uint64_t, uint64_t>& ids) {
    const int i = schemaOf(r.kind).indexOf(name);
    const auto it = ids.find(r.fields[static_cast<size_t>(i)]);
    if (it != ids.end()) r.fields[static_cast<size_t>(i)] = it->second;
  };
  switch (r.kind) {
    case DefKind::SystemTreeNode:
      return field("self", newNode_), field("parent", newNode_);
    case DefKind::SystemTreeNodeProperty:
    case DefKind::SystemTreeNodeDomain:
      return field("node", newNode_);
    case DefKind::LocationGroup:
      return field("self", newGroup_), field("parent", newNode_), field("creator", newGroup_);
    case DefKind::LocationGroupProperty:
      return field("group", newGroup_);
    case DefKind::Location:
      return field("group", newGroup_);
    case DefKind::IoRegularFile:
    case DefKind::IoDirectory:
      return field("scope", newNode_);
    case DefKind::MetricInstance:
      if (r.field("scope") == kScopeLocationGroup) field("scopeRef", newGroup_);
      if (r.field("scope") == kScopeSystemTreeNode) field("scopeRef", newNode_);
      return;
    default:
      return;
  }
}

// Groups of kept locations, and the groups that created those (OTF2's creator field).
void PrunedDefinitions::keepLocationsAndGroups(const Definitions& defs) {
  for (const LocationView& l : defs.locations())
    if (locations_.count(l.id)) groups_.insert(l.group);
  std::vector<uint64_t> pending(groups_.begin(), groups_.end());
  while (!pending.empty()) {
    const DefRecord* g = defs.find(DefKind::LocationGroup, pending.back());
    pending.pop_back();
    if (!g) continue;
    const uint64_t creator = g->field("creator");
    if (creator != kUndefinedId && creator != kUndefinedRef && groups_.insert(creator).second)
      pending.push_back(creator);
  }
}

// The system tree nodes above kept location groups, and those I/O files are scoped in.
void PrunedDefinitions::keepSystemTree(const Definitions& defs) {
  std::vector<uint64_t> pending;
  for (const DefRecord& r : defs.records()) {
    if (r.kind == DefKind::LocationGroup && groups_.count(r.fields[0]))
      pending.push_back(r.field("parent"));
    if (r.kind == DefKind::IoRegularFile || r.kind == DefKind::IoDirectory)
      pending.push_back(r.field("scope"));
  }
  while (!pending.empty()) {
    const uint64_t node = pending.back();
    pending.pop_back();
    const DefRecord* n = defs.find(DefKind::SystemTreeNode, node);
    if (n && nodes_.insert(node).second) pending.push_back(n->field("parent"));
  }
}

// COMM_LOCATIONS groups (one per paradigm) list locations: their index is the rank in
// that paradigm's world. COMM_GROUP groups list such ranks.
void PrunedDefinitions::mapGroups(const Definitions& defs) {
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Group || r.field("type") != kGroupTypeCommLocations) continue;
    IndexMap& map = commLocations_[r.field("paradigm")];
    map.clear();
    int64_t next = 0;
    for (uint64_t location : membersOf(r)) map.push_back(locations_.count(location) ? next++ : -1);
  }
  for (const DefRecord& r : defs.records()) {
    if (r.kind == DefKind::Comm) groupOfComm_[static_cast<Ref>(r.fields[0])] = r.field("group");
    if (r.kind != DefKind::Group || r.field("type") != kGroupTypeCommGroup) continue;
    const auto world = commLocations_.find(r.field("paradigm"));
    if (world == commLocations_.end()) continue;  // no world to renumber: kept as it is
    IndexMap& map = groupMembers_[r.fields[0]];
    int64_t next = 0;
    for (uint64_t rank : membersOf(r))
      map.push_back(rank < world->second.size() && world->second[rank] >= 0 ? next++ : -1);
  }
}

bool PrunedDefinitions::keeps(const DefRecord& r) const {
  switch (r.kind) {
    case DefKind::Location:
      return locations_.count(r.fields[0]) > 0;
    case DefKind::LocationGroup:
      return groups_.count(r.fields[0]) > 0;
    case DefKind::LocationGroupProperty:
      return groups_.count(r.field("group")) > 0;
    case DefKind::LocationProperty:
      return locations_.count(r.field("location")) > 0;
    case DefKind::SystemTreeNode:
      return nodes_.count(r.fields[0]) > 0;
    case DefKind::SystemTreeNodeProperty:
    case DefKind::SystemTreeNodeDomain:
      return nodes_.count(r.field("node")) > 0;
    case DefKind::MetricClassRecorder:
      return locations_.count(r.field("recorder")) > 0;
    case DefKind::MetricInstance: {
      if (!locations_.count(r.field("recorder"))) return false;
      const uint64_t scope = r.field("scope"), ref = r.field("scopeRef");
      if (scope == kScopeLocation) return locations_.count(ref) > 0;
      if (scope == kScopeLocationGroup) return groups_.count(ref) > 0;
      if (scope == kScopeSystemTreeNode) return nodes_.count(ref) > 0;
      return true;
    }
    default:
      return true;
  }
}

DefRecord PrunedDefinitions::pruneGroup(const DefRecord& r) const {
  const uint64_t type = r.field("type");
  std::vector<uint64_t> kept;
  if (type == kGroupTypeLocations || type == kGroupTypeCommLocations) {
    for (uint64_t location : membersOf(r))
      if (locations_.count(location)) kept.push_back(location);
    return withMembers(r, kept);
  }
  if (type != kGroupTypeCommGroup) return r;
  const auto found = commLocations_.find(r.field("paradigm"));
  if (found == commLocations_.end()) return r;
  const IndexMap& world = found->second;
  for (uint64_t rank : membersOf(r))
    if (rank < world.size() && world[rank] >= 0) kept.push_back(static_cast<uint64_t>(world[rank]));
  return withMembers(r, kept);
}

// A coordinate names a rank of its topology's communicator: renumbered, or dropped.
bool PrunedDefinitions::pruneCartCoordinate(const Definitions& defs, DefRecord& r) const {
  const DefRecord* topology = defs.find(DefKind::CartTopology, r.field("topology"));
  if (!topology) return true;
  const auto group = groupOfComm_.find(static_cast<Ref>(topology->field("comm")));
  if (group == groupOfComm_.end()) return true;
  const auto map = groupMembers_.find(group->second);
  if (map == groupMembers_.end()) return true;  // COMM_SELF: rank 0 stays rank 0
  const uint64_t rank = r.fields[1];
  if (rank >= map->second.size() || map->second[rank] < 0) return false;
  r.fields[1] = static_cast<uint64_t>(map->second[rank]);
  return true;
}

int64_t PrunedDefinitions::newRank(Ref comm, uint64_t rank, LocationId self) const {
  if (oldRanks_.isSelf(comm)) return rank == 0 && locations_.count(self) ? 0 : -1;
  const auto group = groupOfComm_.find(comm);
  if (group == groupOfComm_.end()) return -1;
  const auto map = groupMembers_.find(group->second);
  if (map == groupMembers_.end()) return static_cast<int64_t>(rank);  // not renumbered
  if (rank >= map->second.size()) return -1;
  return map->second[rank];
}

}  // namespace mtf::filter
