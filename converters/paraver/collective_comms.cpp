#include "converters/paraver/collective_comms.hpp"

#include <algorithm>

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

uint64_t CommunicatorIds::idOf(Ref comm, LocationId location, const ThreadPlace& place,
                               uint64_t useOrder) {
  if (layout_.paraverOrigin()) return keptId(comm, place);
  for (const uint64_t selfTask : {uint64_t{0}, place.globalTask + 1}) {
    const auto known = ids_.find({comm, selfTask});
    if (known == ids_.end()) continue;
    uint64_t& firstUse = handed_[known->second - 1].firstUse;
    firstUse = std::min(firstUse, useOrder);
    return known->second;
  }
  std::vector<uint32_t> tasks;
  if (!memberTasks(comm, tasks)) return 0;
  uint64_t selfTask = 0;
  if (tasks.empty()) {
    if (ranks_.rankIn(comm, location) != 0) return 0;  // unknown communicator
    tasks.push_back(place.task);
    selfTask = place.globalTask + 1;
  }
  const uint64_t id = ids_.size() + 1;
  ids_.emplace(std::make_pair(comm, selfTask), id);
  lines_.push_back(lineOf(place.appl, id, tasks));
  handed_.push_back({place.appl, std::move(tasks), useOrder});
  return id;
}

std::string CommunicatorIds::lineOf(uint64_t appl, uint64_t id,
                                    const std::vector<uint32_t>& tasks) {
  std::string line =
      "c:" + std::to_string(appl) + ":" + std::to_string(id) + ":" + std::to_string(tasks.size());
  for (uint32_t task : tasks) line += ":" + std::to_string(task);
  return line;
}

std::vector<uint64_t> CommunicatorIds::settle() {
  std::vector<uint64_t> byFirstUse(handed_.size());  // old ids - 1, in the new order
  for (uint64_t i = 0; i < byFirstUse.size(); ++i) byFirstUse[i] = i;
  std::stable_sort(byFirstUse.begin(), byFirstUse.end(), [this](uint64_t a, uint64_t b) {
    return handed_[a].firstUse < handed_[b].firstUse;
  });
  if (std::is_sorted(byFirstUse.begin(), byFirstUse.end())) return {};
  std::vector<uint64_t> newId(handed_.size() + 1, 0);
  for (uint64_t i = 0; i < byFirstUse.size(); ++i) {
    const Handed& h = handed_[byFirstUse[i]];
    newId[byFirstUse[i] + 1] = i + 1;
    lines_[i] = lineOf(h.appl, i + 1, h.tasks);
  }
  for (auto& [key, id] : ids_) id = newId[id];
  std::vector<Handed> reordered;
  for (const uint64_t old : byFirstUse) reordered.push_back(std::move(handed_[old]));
  handed_ = std::move(reordered);
  return newId;
}

}  // namespace mtf::paraver
