#include "converters/paraver/writer_layout.hpp"

#include <algorithm>
#include <ctime>

#include "converters/paraver/collectives.hpp"
#include "converters/paraver/extrae.hpp"
#include "converters/paraver/pcf.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

namespace {

// Extrae's state list (ids and labels as Extrae's .pcf writes them).
const std::pair<uint32_t, const char*> kStates[] = {{0, "Idle"},
                                                    {1, "Running"},
                                                    {2, "Not created"},
                                                    {3, "Waiting a message"},
                                                    {4, "Blocking Send"},
                                                    {5, "Synchronization"},
                                                    {6, "Test/Probe"},
                                                    {7, "Scheduling and Fork/Join"},
                                                    {8, "Wait/WaitAll"},
                                                    {9, "Blocked"},
                                                    {10, "Immediate Send"},
                                                    {11, "Immediate Receive"},
                                                    {12, "I/O"},
                                                    {13, "Group Communication"},
                                                    {14, "Tracing Disabled"},
                                                    {15, "Others"},
                                                    {16, "Send Receive"}};

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != s.npos;
}

// The state Extrae shows while a thread is inside an MPI call.
uint32_t stateOfMpiCall(std::string_view name, RegionRole role) {
  if (contains(name, "Barrier") || role == RegionRole::Barrier) return 5;
  if (role == RegionRole::CollOne2All || role == RegionRole::CollAll2One ||
      role == RegionRole::CollAll2All || role == RegionRole::CollOther)
    return 13;
  if (contains(name, "Sendrecv")) return 16;
  if (contains(name, "Irecv")) return 11;
  if (contains(name, "Isend") || contains(name, "Issend") || contains(name, "Ibsend") ||
      contains(name, "Irsend"))
    return 10;
  if (contains(name, "Recv")) return 3;
  if (contains(name, "Send")) return 4;
  if (contains(name, "Wait")) return 8;
  if (contains(name, "Test") || contains(name, "Probe")) return 6;
  if (contains(name, "File")) return 12;
  return 15;
}

uint64_t mpiTypeOf(std::string_view name, RegionRole role) {
  if (role == RegionRole::PointToPoint || contains(name, "send") || contains(name, "Send") ||
      contains(name, "Recv") || contains(name, "Wait") || contains(name, "Test") ||
      contains(name, "Probe"))
    return kMpiPointToPointType;
  if (stateOfMpiCall(name, role) == 13 || stateOfMpiCall(name, role) == 5)
    return kMpiCollectiveType;
  return kMpiOtherType;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%d/%m/%Y at %H:%M", &parts);
  return text;
}

std::string unitFor(uint64_t resolution) {
  return resolution == 1'000'000'000 ? "_ns" : resolution == 1'000 ? "_ms" : "_us";
}

}  // namespace

WriterLayout::WriterLayout(const Definitions& defs) : defs_(defs) {
  paraverOrigin_ = adoptParaverHeader(defs);
  if (!paraverOrigin_) layOutExtraeStyle(defs);
  assignNodeCpus();
  // Small ids (all of them for Paraver and most OTF2 traces) skip the hash lookup.
  for (const auto& [id, place] : places_) {
    if (id >= (uint64_t{1} << 16)) continue;
    if (dense_.size() <= id) dense_.resize(id + 1, ThreadPlace{});
    dense_[id] = place;
  }
  assignCalls(defs);
  assignCounters(defs);
  chooseTimeUnit(defs);
}

// Keeps the stored header if every location of the trace has a place in it.
bool WriterLayout::adoptParaverHeader(const Definitions& defs) {
  const auto it = defs.info.properties.find(kHeaderProperty);
  if (it == defs.info.properties.end()) return false;
  try {
    header_ = parseHeader(it->second, "paraver.header property");
  } catch (const InputError&) {
    return false;
  }
  const auto locations = defs.locations();
  for (const LocationView& l : locations)
    if (l.id >= header_.threadCount()) return false;
  for (const LocationView& l : locations) {
    const ThreadId t = header_.threadOf(l.id);
    ThreadPlace& place = places_[l.id];
    place.appl = t.appl, place.task = t.task, place.thread = t.thread;
    place.globalTask = header_.globalTaskOf(t.appl, t.task);
    place.slot = l.id + 1;
    place.cpu = l.id + 1;  // what the reader assumes when a record's CPU is position + 1
  }
  return true;
}

// Extrae-style: node i has as many CPUs as threads run on it; each thread gets the next
// free CPU of its node, in location order (position + 1 when nodes come one after another).
void WriterLayout::assignExtraeCpus(const Definitions& defs) {
  const Application& app = header_.applications.front();
  header_.cpusPerNode.assign(header_.nodes, 0);
  for (const TaskShape& task : app.tasks) header_.cpusPerNode[task.node - 1] += task.threads;
  const KernelRules rules(header_);
  std::vector<uint64_t> used(header_.nodes, 0);
  for (const LocationView& l : defs.locations()) {
    ThreadPlace& place = places_[l.id];
    const uint32_t node = app.tasks[place.task - 1].node;
    place.cpu = rules.cpusOfNode(node).first + used[node - 1]++;
  }
}

// Every place learns the CPUs paraver-kernel accepts for it and what to write instead of
// a CPU it would refuse: the place's own CPU if accepted, else 0 (always accepted).
void WriterLayout::assignNodeCpus() {
  const KernelRules rules(header_);
  for (auto& [id, place] : places_) {
    place.nodeCpus = rules.cpusOfNode(rules.nodeOfTask(place.appl, place.task));
    place.fallbackCpu = place.acceptsCpu(place.cpu) ? place.cpu : 0;
  }
}

void WriterLayout::layOutExtraeStyle(const Definitions& defs) {
  std::map<uint64_t, uint32_t> taskOfGroup, nodeOfSystemNode;
  Application app;
  uint64_t position = 0;
  for (const LocationView& l : defs.locations()) {
    auto [task, isNew] = taskOfGroup.emplace(l.group, static_cast<uint32_t>(taskOfGroup.size()));
    if (isNew) {
      const DefRecord* group = defs.find(DefKind::LocationGroup, l.group);
      const uint64_t parent = group ? group->field("parent") : kUndefinedId;
      auto [node, newNode] =
          nodeOfSystemNode.emplace(parent, static_cast<uint32_t>(nodeOfSystemNode.size() + 1));
      if (newNode) {
        const DefRecord* stn = defs.find(DefKind::SystemTreeNode, parent);
        nodeNames_.emplace_back(stn ? defs.string(stn->field("name")) : "node");
      }
      app.tasks.push_back({0, node->second});
    }
    TaskShape& shape = app.tasks[task->second];
    ++shape.threads;
    ThreadPlace& place = places_[l.id];
    place.task = task->second + 1, place.thread = shape.threads;
    place.globalTask = task->second;
    place.slot = ++position;
    threadNames_.emplace_back(l.name);
  }
  header_.applications = {app};
  header_.nodes = static_cast<uint32_t>(std::max<size_t>(nodeNames_.size(), 1));
  header_.hasResources = true;
  header_.date = today();
  header_.index();
  assignExtraeCpus(defs);
}

void WriterLayout::assignCalls(const Definitions& defs) {
  std::map<uint64_t, int64_t> lastValue;  // per type: highest value used
  std::vector<const DefRecord*> untagged;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Region) continue;
    const RegionView region = defs.region(static_cast<Ref>(r.fields[0]));
    CallCode code;
    code.mpi = region.paradigm == Paradigm::Mpi;
    code.state = code.mpi ? stateOfMpiCall(region.name, region.role) : 1;
    if (parseRegionTag(defs.string(r.field("description")), code.type, code.value)) {
      calls_[region.id] = code;
      lastValue[code.type] = std::max(lastValue[code.type], code.value);
      callNames_[code.type][code.value] = std::string(region.name);
    } else {
      untagged.push_back(&r);
    }
  }
  for (const DefRecord* r : untagged) {
    const RegionView region = defs.region(static_cast<Ref>(r->fields[0]));
    CallCode code;
    code.mpi = region.paradigm == Paradigm::Mpi;
    code.state = code.mpi ? stateOfMpiCall(region.name, region.role) : 1;
    code.type = code.mpi ? mpiTypeOf(region.name, region.role) : kUserFunctionType;
    code.value = ++lastValue[code.type];
    calls_[region.id] = code;
    callNames_[code.type][code.value] = std::string(region.name);
  }
  for (auto& [region, code] : calls_) {
    code.enterPair.clear();
    code.enterPair.appendDecimal(code.type, ':');
    code.enterPair.appendDecimal(code.value, ':');
    code.leavePair.clear();
    code.leavePair.appendDecimal(code.type, ':');
    code.leavePair += ":0";
    // Small ids (most traces' regions) skip the hash lookup, one per Enter and Leave.
    if (region >= (uint64_t{1} << 16)) continue;
    if (denseCalls_.size() <= region) denseCalls_.resize(region + 1, nullptr);
    denseCalls_[region] = &code;
  }
}

void WriterLayout::assignCounters(const Definitions& defs) {
  std::map<uint64_t, uint64_t> typeOfMember;
  uint64_t nextType = kFirstCounterType;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::MetricMember) continue;
    uint64_t type = 0;
    if (!parseMetricTag(defs.string(r.field("description")), type)) {
      while (counterNames_.count(nextType)) ++nextType;
      type = nextType++;
    }
    typeOfMember[r.fields[0]] = type;
    counterNames_[type] = std::string(defs.string(r.field("name")));
  }
  const size_t fixed = schemaOf(DefKind::MetricClass).fixedCount;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::MetricClass) continue;
    std::vector<uint64_t>& types = counters_[r.fields[0]];
    for (size_t i = fixed; i < r.fields.size(); ++i) types.push_back(typeOfMember[r.fields[i]]);
  }
  for (const DefRecord& r : defs.records())
    if (r.kind == DefKind::MetricInstance && counters_.count(r.field("class")))
      counters_[r.fields[0]] = counters_[r.field("class")];
}

// A resolution of 1e9, 1e6 or 1e3 keeps its unit; one that divides 1e9 is scaled to ns
// exactly; any other (e.g. CPU cycles) is rounded to the nearest ns and reported.
void WriterLayout::chooseTimeUnit(const Definitions& defs) {
  inputResolution_ = std::max<uint64_t>(defs.clock.resolution, 1);
  offset_ = defs.clock.globalOffset;
  uint64_t target = 1'000'000'000;
  if (paraverOrigin_) {
    target = header_.resolution;
  } else if (inputResolution_ == 1'000'000 || inputResolution_ == 1'000) {
    target = inputResolution_;
  }
  outputResolution_ = target;
  exactTime_ = target % inputResolution_ == 0;
  multiplier_ = exactTime_ ? target / inputResolution_ : 0;
  if (!paraverOrigin_) header_.unit = unitFor(target), header_.resolution = target;
}

Tick WriterLayout::convertTime(Tick t) const {
  const Tick relative = t > offset_ ? t - offset_ : 0;
  if (exactTime_) return relative * multiplier_;
  const unsigned __int128 scaled =
      static_cast<unsigned __int128>(relative) * outputResolution_ + inputResolution_ / 2;
  return static_cast<Tick>(scaled / inputResolution_);
}

std::string WriterLayout::headerText(Tick endTime,
                                     const std::vector<std::string>& communicatorLines) const {
  const auto& props = defs_.info.properties;
  const auto property = [&](const char* key) {
    const auto it = props.find(key);
    return it == props.end() ? std::string() : it->second;
  };
  if (paraverOrigin_)
    return property(kHeaderProperty) + "\n" + property(kCommunicatorsProperty) +
           property(kCommentsProperty);
  Header h = header_;
  h.endTime = endTime;
  h.communicatorCount = static_cast<uint32_t>(communicatorLines.size());
  std::string out = formatHeader(h) + "\n";
  for (const std::string& line : communicatorLines) out += line + "\n";
  return out;
}

std::string WriterLayout::pcfText(const std::map<uint64_t, bool>& genericTypes,
                                  bool collectives) const {
  const auto kept = defs_.info.properties.find(kPcfProperty);
  if (kept != defs_.info.properties.end()) {
    if (!collectives || marksMtfCollectives(kept->second)) return kept->second;
    return kept->second + collectivePcfText() + "\n";
  }
  const char* units = outputResolution_ == 1'000'000'000 ? "NANOSEC"
                      : outputResolution_ == 1'000       ? "MILLISEC"
                                                         : "MICROSEC";
  std::string out = "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               ";
  out += std::string(units) + "\nLOOK_BACK           100\nSPEED               1\n";
  out += "FLAG_ICONS          ENABLED\n\n\nDEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n";
  out += "\n\nSTATES\n";
  for (const auto& [id, label] : kStates) out += std::to_string(id) + "    " + label + "\n";
  static const char* kTypeLabels[] = {"MPI Point-to-point", "MPI Collective Comm", "MPI Other"};
  for (const auto& [type, values] : callNames_) {
    const bool mpi = isMpiCallType(type);
    const std::string label = type >= kMpiPointToPointType && type <= kMpiOtherType
                                  ? kTypeLabels[type - kMpiPointToPointType]
                              : type == kUserFunctionType ? "User function"
                                                          : "Calls " + std::to_string(type);
    out += "\n\nEVENT_TYPE\n" + std::string(mpi ? "9" : "0") + "    " + std::to_string(type) +
           "    " + label + "\nVALUES\n0      End\n";
    for (const auto& [value, name] : values) out += std::to_string(value) + "      " + name + "\n";
  }
  if (!counterNames_.empty()) out += "\n\nEVENT_TYPE\n";
  for (const auto& [type, name] : counterNames_)
    out += "7    " + std::to_string(type) + "    " + name + "\n";
  if (collectives) out += collectivePcfText();
  std::map<uint64_t, bool> unlabelled = genericTypes;
  if (collectives)
    for (uint64_t type : {kGlobalOpSendSizeType, kGlobalOpRecvSizeType, kGlobalOpRootType,
                          kGlobalOpCommType, kCollectiveBeginType, kCollectiveOpType})
      unlabelled.erase(type);
  if (!unlabelled.empty()) out += "\n\nEVENT_TYPE\n";
  for (const auto& entry : unlabelled)
    out += "0    " + std::to_string(entry.first) + "    Event type " + std::to_string(entry.first) +
           "\n";
  return out + "\n";
}

std::string WriterLayout::rowText() const {
  const auto it = defs_.info.properties.find(kRowProperty);
  if (it != defs_.info.properties.end()) return it->second;
  if (paraverOrigin_) return {};
  std::string out = "LEVEL NODE SIZE " + std::to_string(nodeNames_.size()) + "\n";
  for (const std::string& n : nodeNames_) out += n + "\n";
  out += "\nLEVEL THREAD SIZE " + std::to_string(threadNames_.size()) + "\n";
  for (const std::string& n : threadNames_) out += n + "\n";
  return out;
}

}  // namespace mtf::paraver
