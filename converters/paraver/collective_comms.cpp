#include "converters/paraver/collective_comms.hpp"

#include "converters/paraver/fields.hpp"

namespace mtf::paraver {

namespace {
constexpr std::string_view kCommPrefix = "comm ";
}  // namespace

std::string communicatorName(uint64_t appl, uint64_t id) {
  return std::string(kCommPrefix) + std::to_string(appl) + ":" + std::to_string(id);
}

bool parseCommunicatorName(std::string_view name, uint64_t& appl, uint64_t& id) {
  if (name.substr(0, kCommPrefix.size()) != kCommPrefix) return false;
  FieldCursor c(name.substr(kCommPrefix.size()));
  return c.nextUnsigned(appl) && c.nextUnsigned(id) && c.atEnd();
}

uint64_t CommunicatorIds::keptId(Ref comm, const ThreadPlace& place) const {
  const DefRecord* def = defs_.find(DefKind::Comm, comm);
  uint64_t appl = 0, id = 0;
  if (!def || !parseCommunicatorName(defs_.string(def->field("name")), appl, id)) return 0;
  return appl == place.appl ? id : 0;
}

// The task of each rank of `comm`, in rank order (none for COMM_SELF and unknown
// communicators); false if a rank has no place.
bool CommunicatorIds::memberTasks(Ref comm, std::vector<uint32_t>& tasks) const {
  const std::vector<int64_t>* members = ranks_.members(comm);
  if (!members) return true;
  for (int64_t worldRank : *members) {
    const ThreadPlace* place = layout_.placeOf(ranks_.locationOfWorldRank(worldRank));
    if (!place) return false;
    tasks.push_back(place->task);
  }
  return true;
}

uint64_t CommunicatorIds::idOf(Ref comm, LocationId location, const ThreadPlace& place) {
  if (layout_.paraverOrigin()) return keptId(comm, place);
  for (const uint64_t selfTask : {uint64_t{0}, place.globalTask + 1}) {
    const auto known = ids_.find({comm, selfTask});
    if (known != ids_.end()) return known->second;
  }
  std::vector<uint32_t> tasks;
  if (!memberTasks(comm, tasks)) return 0;
  uint64_t selfTask = 0;
  if (tasks.empty()) {
    if (ranks_.rankIn(comm, location) != 0) return 0;  // unknown communicator
    tasks.push_back(place.task);
    selfTask = place.globalTask + 1;
  }
  const auto [it, isNew] = ids_.emplace(std::make_pair(comm, selfTask), ids_.size() + 1);
  if (!isNew) return it->second;
  std::string line = "c:" + std::to_string(place.appl) + ":" + std::to_string(it->second) + ":" +
                     std::to_string(tasks.size());
  for (uint32_t task : tasks) line += ":" + std::to_string(task);
  lines_.push_back(line);
  return it->second;
}

}  // namespace mtf::paraver
