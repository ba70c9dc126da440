// The public definitions and event kinds, built from the internal model.
#include <algorithm>

#include "api/api_impl.hpp"
#include "model/event.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::api {
namespace {

std::string locationTypeName(LocationType type) {
  switch (type) {
    case LocationType::CpuThread:
      return "cpu_thread";
    case LocationType::Gpu:
      return "gpu";
    case LocationType::Metric:
      return "metric";
    case LocationType::Unknown:
      return "unknown";
    default:
      return "other";
  }
}

std::string roleName(RegionRole role) {
  switch (role) {
    case RegionRole::Function:
      return "function";
    case RegionRole::Wrapper:
      return "wrapper";
    case RegionRole::Loop:
      return "loop";
    case RegionRole::Code:
      return "code";
    case RegionRole::Barrier:
      return "barrier";
    case RegionRole::CollOne2All:
      return "coll_one2all";
    case RegionRole::CollAll2One:
      return "coll_all2one";
    case RegionRole::CollAll2All:
      return "coll_all2all";
    case RegionRole::CollOther:
      return "coll_other";
    case RegionRole::PointToPoint:
      return "point2point";
    default:
      return "unknown";
  }
}

std::string paradigmName(Paradigm paradigm) {
  switch (paradigm) {
    case Paradigm::User:
      return "user";
    case Paradigm::Compiler:
      return "compiler";
    case Paradigm::OpenMp:
      return "openmp";
    case Paradigm::Mpi:
      return "mpi";
    default:
      return "unknown";
  }
}

std::vector<Location> publicLocations(const mtf::Definitions& defs, const RankMap& ranks) {
  std::vector<Location> out;
  for (const LocationView& l : defs.locations()) {
    Location p{l.id, std::string(l.name), locationTypeName(l.type), ranks.worldRank(l.id), l.group,
               ""};
    if (const DefRecord* g = defs.find(DefKind::LocationGroup, l.group))
      p.groupName = std::string(defs.string(g->field("name")));
    out.push_back(std::move(p));
  }
  return out;
}

template <typename T>
const T* findById(const std::vector<T>& items, uint64_t id) {
  for (const T& item : items)
    if (item.id == id) return &item;
  return nullptr;
}

}  // namespace

Definitions publicDefinitions(const mtf::Definitions& defs) {
  const RankMap ranks(defs);
  Definitions out;
  out.format = defs.info.format;
  out.formatVersion = defs.info.version;
  out.creator = defs.info.creator;
  out.resolution = defs.clock.resolution;
  out.locations = publicLocations(defs, ranks);
  for (const DefRecord& r : defs.records()) {
    if (r.kind == DefKind::Region) {
      const RegionView v = defs.region(static_cast<Ref>(r.field("self")));
      out.regions.push_back(
          {v.id, std::string(v.name), roleName(v.role), paradigmName(v.paradigm)});
    } else if (r.kind == DefKind::Comm) {
      const auto id = static_cast<Ref>(r.field("self"));
      Communicator c{id, std::string(defs.string(r.field("name"))), {}, ranks.isSelf(id)};
      if (const std::vector<int64_t>* members = ranks.members(id)) c.worldRanks = *members;
      out.communicators.push_back(std::move(c));
    }
  }
  for (size_t k = 0; k < kDefKindCount; ++k)
    if (const size_t n = defs.count(static_cast<DefKind>(k)))
      out.counts[std::string(nameOf(static_cast<DefKind>(k)))] = n;
  return out;
}

const Location* Definitions::location(LocationId id) const {
  return findById(locations, id);
}
const Region* Definitions::region(uint32_t id) const {
  return findById(regions, id);
}
const Communicator* Definitions::communicator(uint32_t id) const {
  return findById(communicators, id);
}

size_t eventKindCount() {
  return kEventKindCount;
}

std::string_view eventKindName(EventKindId kind) {
  if (kind >= kEventKindCount)
    throw Error(1, "event kind " + std::to_string(kind) + ": no such kind");
  return nameOf(static_cast<EventKind>(kind));
}

EventKindId eventKindByName(std::string_view name) {
  EventKind kind;
  if (!eventKindFromName(name, kind))
    throw Error(1, "event kind '" + std::string(name) + "': no such kind");
  return static_cast<EventKindId>(kind);
}

std::vector<std::string> eventFieldNames(EventKindId kind) {
  if (kind >= kEventKindCount)
    throw Error(1, "event kind " + std::to_string(kind) + ": no such kind");
  std::vector<std::string> names;
  for (const FieldSpec& f : schemaOf(static_cast<EventKind>(kind)).fields) names.push_back(f.name);
  return names;
}

}  // namespace mtf::api
