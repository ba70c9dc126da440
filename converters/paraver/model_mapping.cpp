#include "converters/paraver/model_mapping.hpp"

#include <algorithm>

#include "converters/paraver/collective_comms.hpp"
#include "converters/paraver/collectives.hpp"
#include "converters/paraver/extrae.hpp"
#include "converters/paraver/fields.hpp"
#include "model/mpi_ranks.hpp"
#include "model/thread_messages.hpp"

namespace mtf::paraver {

namespace {

std::string labelFromRow(const Row* row, const char* level, size_t index, std::string fallback) {
  if (row) {
    const auto it = row->find(level);
    if (it != row->end() && index < it->second.size() && !it->second[index].empty())
      return it->second[index];
  }
  return fallback;
}

RegionRole mpiRole(uint64_t type, const std::string& name) {
  if (type == kMpiPointToPointType) return RegionRole::PointToPoint;
  if (type != kMpiCollectiveType) return RegionRole::Function;
  const auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (has("Barrier")) return RegionRole::Barrier;
  if (has("Allreduce") || has("Allgather") || has("Alltoall") || has("Reduce_scatter"))
    return RegionRole::CollAll2All;
  if (has("Bcast") || has("Scatter")) return RegionRole::CollOne2All;
  if (has("Reduce") || has("Gather")) return RegionRole::CollAll2One;
  return RegionRole::CollOther;
}

void defineLocations(const Header& h, const Row* row, DefinitionBuilder& b, Ref& world) {
  uint32_t nodes = h.nodes;
  for (const Application& app : h.applications)
    for (const TaskShape& t : app.tasks) nodes = std::max(nodes, t.node);
  std::vector<uint64_t> nodeRefs;
  for (uint32_t n = 0; n < std::max<uint32_t>(nodes, 1); ++n)
    nodeRefs.push_back(
        b.systemTreeNode(labelFromRow(row, "NODE", n, "node " + std::to_string(n + 1)), "node"));
  std::vector<LocationId> rankLocations;
  LocationId location = 0;
  for (uint32_t a = 0; a < h.applications.size(); ++a) {
    for (uint32_t t = 0; t < h.applications[a].tasks.size(); ++t) {
      const TaskShape& shape = h.applications[a].tasks[t];
      const std::string taskName = std::to_string(a + 1) + "." + std::to_string(t + 1);
      const uint64_t node = nodeRefs[shape.node > 0 ? shape.node - 1 : 0];
      const uint64_t group = b.locationGroup(
          labelFromRow(row, "TASK", h.globalTaskOf(a + 1, t + 1), "TASK " + taskName), node);
      rankLocations.push_back(location);
      for (uint32_t th = 0; th < shape.threads; ++th, ++location)
        b.location(location,
                   labelFromRow(row, "THREAD", location,
                                "THREAD " + taskName + "." + std::to_string(th + 1)),
                   group);
    }
  }
  world = defineMpiWorld(b, rankLocations);
}

// "c:appl:comm_id:ntasks:task1:..." -> a sub-communicator; lines naming tasks outside
// the header (old traces write -1 for "no task") stay only in the properties.
void defineCommunicators(const Header& h, DefinitionBuilder& b, ModelMapping& m) {
  for (const std::string& line : h.communicatorLines) {
    if (line[0] != 'c' && line[0] != 'C') continue;  // intercommunicators: properties only
    FieldCursor c(std::string_view(line).substr(2));
    uint64_t appl = 0, id = 0, count = 0;
    if (!c.nextUnsigned(appl) || !c.nextUnsigned(id) || !c.nextUnsigned(count)) continue;
    std::vector<uint64_t> ranks;
    uint64_t task = 0;
    bool valid = true;
    for (uint64_t i = 0; i < count && valid; ++i) {
      const uint64_t global = c.nextUnsigned(task) ? h.globalTaskOf(static_cast<uint32_t>(appl),
                                                                    static_cast<uint32_t>(task))
                                                   : kUndefinedId;
      valid = global != kUndefinedId;
      ranks.push_back(global);
    }
    if (!valid || m.communicators.count({appl, id})) continue;
    m.communicators[{appl, id}] = defineMpiComm(b, communicatorName(appl, id), ranks, m.world);
  }
}

Ref defineAttribute(Definitions& defs, DefinitionBuilder& b, Ref id, std::string_view name,
                    uint8_t type) {
  defs.add({DefKind::Attribute, {id, b.string(name), b.string("Paraver record field"), type}, {}});
  return id;
}

// The region name of a begin/end value: MPI calls and functions by the value's label;
// other types by theirs, with the value's label when they have several values.
std::string regionName(uint64_t type, const EventTypeInfo& info, const std::string& label) {
  if (isMpiCallType(type) || isFunctionType(type)) return label;
  const size_t nonZero = info.values.size() - info.values.count(0);
  return nonZero == 1 ? info.label : info.label + ": " + label;
}

Paradigm regionParadigm(uint64_t type, const std::string& typeLabel) {
  if (isMpiCallType(type)) return Paradigm::Mpi;
  if (isFunctionType(type)) return Paradigm::User;
  const bool openMp =
      typeLabel.find("OMP") != std::string::npos || typeLabel.find("OpenMP") != std::string::npos;
  return openMp ? Paradigm::OpenMp : Paradigm::User;
}

bool beginEnd(uint64_t type, const EventTypeInfo& info) {
  const auto zero = info.values.find(0);
  const size_t nonZero = info.values.size() - (zero == info.values.end() ? 0 : 1);
  return isBeginEndType(type, info.label, zero == info.values.end() ? "" : zero->second, nonZero);
}

void defineRegionsAndMetrics(const Pcf& pcf, Definitions& defs, DefinitionBuilder& b,
                             ModelMapping& m) {
  Ref nextRegion = 0, nextMember = 0, nextClass = 0;
  for (const auto& [type, info] : pcf.types) {
    if (beginEnd(type, info)) {
      m.beginEndTypes.insert(type);
      const bool mpi = isMpiCallType(type);
      const Paradigm paradigm = regionParadigm(type, info.label);
      for (const auto& [value, label] : info.values) {
        if (value == 0 || m.regions.count({type, value})) continue;
        const Ref id = nextRegion++;
        const Ref name = b.string(regionName(type, info, label));
        defs.add({DefKind::Region,
                  {id, name, name, b.string(regionTag(type, value)),
                   static_cast<uint64_t>(mpi ? mpiRole(type, label) : RegionRole::Function),
                   static_cast<uint64_t>(paradigm), 0, kUndefinedRef, 0, 0},
                  {}});
        m.regions[{type, value}] = id;
      }
    } else if (isCounterType(type)) {
      const Ref member = nextMember++;
      // metricType 1 = PAPI, mode 2 = ACCUMULATED_LAST (Extrae writes the delta since the
      // previous reading), value type UINT64.
      defs.add({DefKind::MetricMember,
                {member, b.string(info.label), b.string(metricTag(type)), 1, 2, kTypeUint64, 0, 0,
                 b.string("#")},
                {}});
      const Ref cls = nextClass++;
      defs.add({DefKind::MetricClass, {cls, 0, 0, 1, member}, {}});
      m.metrics[type] = cls;
    }
  }
}

}  // namespace

void buildDefinitions(const ParaverInputs& in, Definitions& defs, ModelMapping& m) {
  const Header& h = *in.header;
  DefinitionBuilder b(defs);
  defs.clock.resolution = h.resolution;
  defs.clock.traceLength = h.endTime;
  defs.clock.globalOffset = 0;
  defineLocations(h, in.row, b, m.world);
  defineCommunicators(h, b, m);
  if (in.pcf) defineRegionsAndMetrics(*in.pcf, defs, b, m);
  m.mtfCollectives = in.pcf && marksMtfCollectives(*in.pcf);
  Ref attribute = 0;
  m.cpuAttribute = defineAttribute(defs, b, attribute++, kCpuAttribute, kTypeUint64);
  m.newLineAttribute = defineAttribute(defs, b, attribute++, kNewLineAttribute, kTypeUint8);
  m.logicalSendAttribute =
      defineAttribute(defs, b, attribute++, kLogicalSendAttribute, kTypeUint64);
  m.timeAttribute = defineAttribute(defs, b, attribute++, kTimeAttribute, kTypeUint64);
  m.logicalRecvAttribute =
      defineAttribute(defs, b, attribute++, kLogicalRecvAttribute, kTypeUint64);
  m.globalOpAttribute = defineAttribute(defs, b, attribute++, kGlobalOpAttribute, kTypeUint64);
  m.commIdAttribute = defineAttribute(defs, b, attribute++, kCommIdAttribute, kTypeUint64);
  m.peerThreadAttribute = defineAttribute(defs, b, attribute++, kPeerThreadAttribute, kTypeUint64);
  m.messageIdAttribute = defineAttribute(defs, b, attribute++, kMessageIdAttribute, kTypeUint64);
}

}  // namespace mtf::paraver
