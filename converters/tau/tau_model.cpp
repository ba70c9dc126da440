#include "converters/tau/tau_model.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace mtf::tau {
namespace {

constexpr uint8_t kOtf2TypeUint64 = 4;
constexpr uint8_t kOtf2TypeInt64 = 8;
constexpr uint8_t kMetricModeAbsolutePoint = 4;
constexpr uint8_t kMetricBaseDecimal = 1;
constexpr uint8_t kMetricOccurrenceSynchronous = 1;

struct TimeSpan {
  uint64_t first = std::numeric_limits<uint64_t>::max();
  uint64_t last = 0;
  void add(uint64_t t) {
    first = std::min(first, t);
    last = std::max(last, t);
  }
};

// Allocates the definitions this reader makes itself (regions, metrics, attributes);
// strings, groups and comms go through the DefinitionBuilder.
class ModelBuilder {
 public:
  explicit ModelBuilder(TraceModel& model) : model_(model), builder_(model.defs) {}

  void locations(const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>& threads);
  void entities();
  void attributes();
  void mpi(const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>& threads);

 private:
  Ref region(const EdfEntry& e);
  Ref metric(const EdfEntry& e);
  Ref attribute(const char* name, const char* description);

  TraceModel& model_;
  DefinitionBuilder builder_;
  std::unordered_map<std::string, Ref> entityOfLine_;  // "R|line" or "M|line" -> ref
  Ref nextRegion_ = 0, nextMember_ = 0, nextMetric_ = 0, nextAttribute_ = 0;
};

void ModelBuilder::locations(const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>& threads) {
  const uint64_t root = builder_.systemTreeNode("TAU trace", "machine");
  std::map<uint32_t, uint64_t> groupOfNode;
  for (const auto& [node, context, thread] : threads) {
    auto it = groupOfNode.find(node);
    if (it == groupOfNode.end()) {
      const std::string name = "node " + std::to_string(node);
      const uint64_t stnode = builder_.systemTreeNode(name, "node", root);
      it = groupOfNode.emplace(node, builder_.locationGroup(name, stnode)).first;
    }
    std::string name = "node " + std::to_string(node) + " thread " + std::to_string(thread);
    if (context != 0) name += " context " + std::to_string(context);
    builder_.location(locationIdOf(node, context, thread), name, it->second);
  }
}

Ref ModelBuilder::region(const EdfEntry& e) {
  const auto [it, fresh] = entityOfLine_.emplace("R|" + e.line, nextRegion_);
  if (!fresh) return it->second;
  const Ref id = nextRegion_++;
  const Paradigm paradigm = e.group == "MPI" ? Paradigm::Mpi : Paradigm::User;
  // name: the display name; canonical name: TAU's raw name; description: the edf line,
  // from which the writer restores the event id.
  model_.defs.add({DefKind::Region,
                   {id, builder_.string(displayName(e.name)), builder_.string(e.name),
                    builder_.string(e.line), static_cast<uint64_t>(RegionRole::Function),
                    static_cast<uint64_t>(paradigm), 0, kUndefinedRef, 0, 0},
                   {}});
  return id;
}

Ref ModelBuilder::metric(const EdfEntry& e) {
  const auto [it, fresh] = entityOfLine_.emplace("M|" + e.line, nextMetric_);
  if (!fresh) return it->second;
  const Ref member = nextMember_++;
  model_.defs.add(
      {DefKind::MetricMember,
       {member, builder_.string(e.name), builder_.string(e.line), 0, kMetricModeAbsolutePoint,
        kOtf2TypeInt64, kMetricBaseDecimal, 0, builder_.string("")},
       {}});
  const Ref cls = nextMetric_++;
  model_.defs.add({DefKind::MetricClass, {cls, kMetricOccurrenceSynchronous, 0, 1, member}, {}});
  return cls;
}

Ref ModelBuilder::attribute(const char* name, const char* description) {
  const Ref id = nextAttribute_++;
  model_.defs.add({DefKind::Attribute,
                   {id, builder_.string(name), builder_.string(description), kOtf2TypeUint64},
                   {}});
  return id;
}

void ModelBuilder::entities() {
  for (const auto& [key, edf] : model_.edfs) {
    TranslationTable& table = model_.translations[key];
    for (const EdfEntry& e : edf.entries) {
      Translation t;
      t.cls = e.eventClass();
      if (t.cls == EventClass::Region) t.ref = region(e);
      if (t.cls == EventClass::Trigger) t.ref = metric(e);
      if (t.cls == EventClass::Send || t.cls == EventClass::Recv) model_.hasMpi = true;
      const bool tracer = e.group == "TRACER";
      t.genericType = tracer ? canonicalTracerId(e.name).value_or(e.id) : e.id;
      table.add(e.id, t);
    }
  }
}

void ModelBuilder::attributes() {
  model_.attrSingle = attribute(kAttrTriggerSingle, "TAU TriggerValue written as one record");
  model_.attrValueDelay =
      attribute(kAttrValueDelay, "TAU TriggerValue: microseconds from the leading 0 to the value");
  model_.attrEndDelay =
      attribute(kAttrEndDelay, "TAU TriggerValue: microseconds from the value to the trailing 0");
}

// TAU records the partner of a message as a world rank (the node id) and the
// communicator as a 6-bit id without its members. Choice: MPI_COMM_WORLD holds the first
// thread of every node, and every TAU communicator id k > 0 becomes a Comm spanning the
// world too, so a rank in any of them is the world rank TAU wrote.
void ModelBuilder::mpi(const std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>& threads) {
  if (!model_.hasMpi) return;
  std::vector<LocationId> world;
  std::set<uint32_t> seen;
  for (const auto& [node, context, thread] : threads)
    if (seen.insert(node).second) world.push_back(locationIdOf(node, context, thread));
  model_.comms[0] = defineMpiWorld(builder_, world);
  const DefRecord* worldComm = model_.defs.find(DefKind::Comm, model_.comms[0]);
  const Ref group = static_cast<Ref>(worldComm->field("group"));
  for (uint32_t k = 1; k <= kMaxComm; ++k)
    model_.comms[k] =
        builder_.comm("TAU communicator " + std::to_string(k), group, model_.comms[0]);
}

void notePartialRecord(TraceModel& model, const RecordReader& reader) {
  if (reader.trailingBytes() == 0) return;
  model.partialRecords.emplace_back(reader.path().string(),
                                    placeRecord(reader.recordCount()) + ": truncated record (" +
                                        std::to_string(reader.trailingBytes()) + " of " +
                                        std::to_string(reader.format().size) + " bytes)");
}

// Per-thread set: record 0 and the last record of every file give the layout and the span.
void scanThreadFiles(TraceModel& model, TimeSpan& span) {
  for (const ThreadFile& t : model.files.threads) {
    RecordReader reader(t.path, initEventIdOf(model.edfs.at(t.node)));
    notePartialRecord(model, reader);
    model.fileFormats.push_back(reader.format());
    model.totalRecords += reader.recordCount();
    Record first;
    reader.next(first);
    span.add(first.time);
    span.add(reader.lastRecord().time);
  }
}

// Merged file: one pass over all records to learn its threads (the file holds no list).
std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> scanMergedFile(TraceModel& model,
                                                                     TimeSpan& span) {
  RecordReader reader(model.files.mergedTrc, initEventIdOf(model.edfs.at(0)));
  notePartialRecord(model, reader);
  model.fileFormats.push_back(reader.format());
  model.totalRecords = reader.recordCount();
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> threads;
  Record r;
  while (reader.next(r)) {
    threads.emplace(r.node, 0u, r.thread);
    span.add(r.time);
  }
  return {threads.begin(), threads.end()};
}

void setProperties(TraceModel& model) {
  auto& p = model.defs.info.properties;
  p[kPropLayout] = model.files.merged ? "merged" : "per-thread";
  p[kPropRecordFormat] = model.fileFormats.front().name();
  p[kPropRecords] = std::to_string(model.totalRecords);
  for (const auto& [node, edf] : model.edfs)
    p[model.files.merged ? std::string(kPropMergedEdf) : nodeEdfProperty(node)] = edf.text;
}

}  // namespace

std::string nodeEdfProperty(uint32_t node) {
  return "tau.edf." + std::to_string(node);
}

std::optional<int64_t> initEventIdOf(const EdfTable& edf) {
  for (const EdfEntry& e : edf.entries)
    if (e.name == "EV_INIT") return e.id;
  return std::nullopt;
}

TraceModel buildTraceModel(const TraceFiles& files) {
  TraceModel model;
  model.files = files;
  if (files.merged) {
    model.edfs.emplace(0, readEdf(files.mergedEdf));
  } else {
    for (const auto& [node, path] : files.edfOfNode) model.edfs.emplace(node, readEdf(path));
  }
  TimeSpan span;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> threads;
  if (files.merged) {
    threads = scanMergedFile(model, span);
  } else {
    scanThreadFiles(model, span);
    for (const ThreadFile& t : files.threads) threads.emplace_back(t.node, t.context, t.thread);
  }
  if (threads.empty()) throw InputError(files.mergedTrc.string(), "", "no records");
  model.defs.info.format = "tau";
  model.defs.info.creator = "TAU";
  model.defs.clock.resolution = 1'000'000;  // TAU timestamps are microseconds
  model.defs.clock.globalOffset = span.first;
  model.defs.clock.traceLength = span.last - span.first;
  ModelBuilder builder(model);
  builder.locations(threads);
  builder.entities();
  builder.attributes();
  builder.mpi(threads);
  setProperties(model);
  return model;
}

}  // namespace mtf::tau
