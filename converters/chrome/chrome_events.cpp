// The Chrome writer's records for messages, collectives, metrics and every other kind.
#include <cmath>

#include "converters/chrome/chrome_writer.hpp"
#include "converters/chrome/json_text.hpp"

namespace mtf::chrome {
namespace {

constexpr uint8_t kTypeUint64 = 4, kTypeInt64 = 8, kTypeDouble = 10, kTypeString = 12;
constexpr uint64_t kDoubleExact = uint64_t{1} << 53;

// OTF2_CollectiveOp values.
std::string collectiveName(uint64_t op) {
  static const char* const kNames[] = {"MPI_Barrier",
                                       "MPI_Bcast",
                                       "MPI_Gather",
                                       "MPI_Gatherv",
                                       "MPI_Scatter",
                                       "MPI_Scatterv",
                                       "MPI_Allgather",
                                       "MPI_Allgatherv",
                                       "MPI_Alltoall",
                                       "MPI_Alltoallv",
                                       "MPI_Alltoallw",
                                       "MPI_Allreduce",
                                       "MPI_Reduce",
                                       "MPI_Reduce_scatter",
                                       "MPI_Scan",
                                       "MPI_Exscan",
                                       "MPI_Reduce_scatter_block",
                                       "create handle",
                                       "destroy handle",
                                       "allocate",
                                       "deallocate",
                                       "create handle and allocate",
                                       "destroy handle and deallocate"};
  if (op < std::size(kNames)) return kNames[op];
  return "collective " + std::to_string(op);
}

}  // namespace

void ChromeWriter::message(Lane& lane, const Event& e, int64_t ns) {
  const Ref comm = static_cast<Ref>(e.fields[1]);
  const int64_t partner = ranks_->worldRankOf(comm, e.fields[0], lane.id);
  std::string& b = out_->buffer();
  record(b, lane, "X", ns) += "\"dur\":0.000,\"cat\":\"message\",\"name\":\"";
  b += nameOf(e.kind);
  b += "\",";
  messageArgs(b, lane, e, partner);
  // A thread that is not a rank's location is an end too when the trace names the threads.
  if (partner < 0 || (lane.rank < 0 && !threadMessages_.declared())) {
    lose("messages of a location or partner that is not an MPI world rank (no flow arrow)");
    return;
  }
  const uint64_t id = flowIdOf(lane, e, partner);
  const bool send = isSend(e.kind);
  std::string& to = send ? b : flowEnds_->buffer();
  record(to, lane, send ? "s" : "f", ns) += send ? "" : "\"bp\":\"e\",";
  to += "\"cat\":\"message\",\"name\":\"MPI message\",\"id\":\"0x";
  char hex[17];
  for (int i = 15; i >= 0; --i) hex[15 - i] = "0123456789abcdef"[(id >> (4 * i)) & 0xF];
  to.append(hex, 16);
  to += "\"}";
}

// By rank channel; in a trace that says which threads its messages join, by thread
// channel, or by the id both ends of a message carry (model/thread_messages.hpp).
uint64_t ChromeWriter::flowIdOf(const Lane& lane, const Event& e, int64_t partner) {
  const bool send = isSend(e.kind);
  const Ref comm = static_cast<Ref>(e.fields[1]);
  const auto tag = static_cast<uint32_t>(e.fields[2]);
  uint64_t shared = 0;
  if (threadMessages_.idOf(e, shared))
    return MessageFlows::flowId({-2, -2, kUndefinedRef, 0}, shared);
  int64_t self = lane.rank, peer = partner;
  if (threadMessages_.declared()) {
    uint64_t location = 0;
    if (!threadMessages_.peerOf(e, location))
      location = ranks_->locationOf(comm, e.fields[0], lane.id);
    self = static_cast<int64_t>(lane.id);
    peer = static_cast<int64_t>(location);
  }
  const Channel channel{send ? self : peer, send ? peer : self, comm, tag};
  return send ? flows_.nextSend(channel) : flows_.nextReceive(channel);
}

void ChromeWriter::messageArgs(std::string& out, const Lane& lane, const Event& e,
                               int64_t partner) {
  const bool send = isSend(e.kind);
  out += "\"args\":{\"";
  out += send ? "receiver" : "sender";
  out += partner >= 0 ? "\":" : "_rank_in_comm\":";
  appendInt(out, partner >= 0 ? static_cast<uint64_t>(partner) : e.fields[0]);
  out += ",\"comm\":";
  const DefRecord* comm = defs_->find(DefKind::Comm, e.fields[1]);
  appendName(out, comm ? defs_->string(comm->fields[1]) : "comm " + std::to_string(e.fields[1]));
  out += ",\"tag\":";
  appendInt(out, e.fields[2]);
  out += ",\"bytes\":";
  appendInt(out, e.fields[3]);
  if (e.fields.size() > 4) {
    out += ",\"request\":";
    appendInt(out, e.fields[4]);
  }
  appendAttributes(out, e);
  (void)lane;
  out += "}}";
}

void ChromeWriter::collectiveEnd(Lane& lane, const Event& e, int64_t ns) {
  int64_t begin = ns;
  if (!lane.collectives.empty()) {
    begin = lane.collectives.back();
    lane.collectives.pop_back();
  }
  std::string& b = out_->buffer();
  record(b, lane, "X", begin) += "\"dur\":";
  MicroClock::appendMicros(b, ns - begin);
  b += ",\"cat\":\"collective\",\"name\":";
  appendName(b, collectiveName(e.fields[0]));
  b += ',';
  appendFields(b, e);
  b += '}';
}

// One counter event per member value; "id" keeps each location's series apart.
void ChromeWriter::metric(Lane& lane, const Event& e, int64_t ns) {
  const auto it = metricMembers_.find(static_cast<Ref>(e.fields[0]));
  const size_t count = e.fields[1];
  if (it == metricMembers_.end() || it->second.size() != count || e.fields.size() < 2 + 2 * count)
    return lose("Metric events of undefined metrics");
  std::string& b = out_->buffer();
  for (size_t i = 0; i < count; ++i) {
    const auto name = memberNames_.find(it->second[i]);
    if (name == memberNames_.end()) {
      lose("Metric values of undefined metric members");
      continue;
    }
    const size_t mark = b.size();
    record(b, lane, "C", ns) +=
        lane.seriesId + "\"name\":" + name->second + ",\"args\":{\"value\":";
    if (!appendMetricValue(b, static_cast<uint8_t>(e.fields[2 + 2 * i]), e.fields[3 + 2 * i])) {
      b.resize(mark);  // nothing of it written (the separator goes too: never the first record)
      lose("metric values that are not finite numbers (JSON has none)");
      continue;
    }
    b += "}}";
  }
}

bool ChromeWriter::appendMetricValue(std::string& out, uint8_t type, uint64_t bits) {
  if (type == kTypeDouble) return appendDouble(out, asDouble(bits));
  if (type == kTypeInt64) {
    const int64_t v = asSigned(bits);
    if (static_cast<uint64_t>(v < 0 ? -(v + 1) : v) >= kDoubleExact)
      lose("metric values beyond 2^53 (viewers reading doubles round them)");
    appendInt(out, v);
    return true;
  }
  if (bits >= kDoubleExact) lose("metric values beyond 2^53 (viewers reading doubles round them)");
  appendInt(out, bits);
  (void)kTypeUint64;
  return true;
}

// A state lane: the pid of its location, the next free tid, sorted with its location.
ChromeWriter::Lane& ChromeWriter::statesLane(Lane& lane) {
  if (lane.states) return *lane.states;
  stateLanes_.push_back(std::make_unique<Lane>());
  Lane& states = *stateLanes_.back();
  states.id = lane.id;
  states.tid = nextTid_++;
  states.place = lane.place.substr(0, lane.place.find("\"tid\":")) +
                 "\"tid\":" + std::to_string(states.tid) + ",";
  std::string& b = out_->buffer();
  record(b, states, "M", 0) += "\"name\":\"thread_name\",\"args\":{\"name\":";
  appendName(b, lane.name + " states");
  b += "}}";
  record(b, states, "M", 0) += "\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":";
  appendInt(b, lane.tid);
  b += "}}";
  lane.states = &states;
  return states;
}

// A State(end, state) is a slice from its time to its end on its location's state lane.
void ChromeWriter::state(Lane& lane, const Event& e, int64_t ns) {
  if (e.fields.size() < 2) return instant(lane, e, ns);
  // One that ends before it begins (paraver-kernel reads such records): no length.
  const bool backwards = e.fields[0] < e.time;
  const int64_t end = backwards ? ns : clock_->nanoseconds(e.fields[0]);
  auto label = stateLabels_.find(e.fields[1]);
  if (label == stateLabels_.end())
    label = stateLabels_.emplace(e.fields[1], jsonString(stateNames_->nameOf(e.fields[1]))).first;
  std::string& b = out_->buffer();
  record(b, statesLane(lane), "X", ns) += "\"dur\":";
  MicroClock::appendMicros(b, end - ns);
  b += ",\"cat\":\"state\",\"name\":";
  b += label->second;
  b += ",\"args\":{\"state\":";
  appendInt(b, e.fields[1]);
  if (backwards) {
    b += ",\"end_ticks\":";
    appendInt(b, e.fields[0]);
  }
  appendAttributes(b, e);
  b += "}}";
}

void ChromeWriter::instant(Lane& lane, const Event& e, int64_t ns) {
  std::string& b = out_->buffer();
  record(b, lane, "i", ns) += "\"s\":\"t\",\"cat\":\"event\",\"name\":\"";
  b += nameOf(e.kind);
  b += "\",";
  appendFields(b, e);
  b += '}';
}

// "args":{...} with every field by its schema name (repeated ones as name[i]),
// references to strings and regions as their text, then the attributes.
void ChromeWriter::appendFields(std::string& out, const Event& e) {
  const KindSchema& schema = schemaOf(e.kind);
  out += "\"args\":{";
  bool first = true;
  for (size_t i = 0; i < e.fields.size(); ++i) {
    const bool repeated = schema.hasGroup() && i >= schema.fixedCount;
    const size_t at = repeated ? schema.fixedCount + (i - schema.fixedCount) % schema.groupSize : i;
    if (at >= schema.fields.size()) break;
    const FieldSpec& spec = schema.fields[at];
    if (!first) out += ',';
    first = false;
    std::string key = spec.name;
    if (repeated) key += "[" + std::to_string((i - schema.fixedCount) / schema.groupSize) + "]";
    appendName(out, key);
    out += ':';
    const uint64_t v = e.fields[i];
    if (spec.type == FieldType::I64) {
      appendInt(out, asSigned(v));
    } else if (spec.type == FieldType::F64) {
      if (!appendDouble(out, asDouble(v))) appendName(out, std::to_string(asDouble(v)));
    } else if (spec.type == FieldType::Ref && spec.refKind == "string") {
      appendName(out, defs_->string(v));
    } else if (spec.type == FieldType::Ref && spec.refKind == "region") {
      out += regionNames(static_cast<Ref>(v)).name;
    } else if (const DefRecord* comm =
                   spec.refKind == "comm" ? defs_->find(DefKind::Comm, v) : nullptr) {
      appendName(out, defs_->string(comm->fields[1]));
    } else {
      appendInt(out, v);
    }
  }
  if (!first && !e.attributes.empty()) out += ',';
  appendAttributes(out, e);
  out += '}';
}

// ,"attributes":{"name":value,...} (strings as text, other values as their numbers).
void ChromeWriter::appendAttributes(std::string& out, const Event& e) {
  if (e.attributes.empty()) return;
  if (out.back() != '{' && out.back() != ',') out += ',';
  out += "\"attributes\":{";
  for (size_t i = 0; i < e.attributes.size(); ++i) {
    const EventAttribute& a = e.attributes[i];
    if (i) out += ',';
    const DefRecord* def = defs_->find(DefKind::Attribute, a.attribute);
    appendName(out, def ? defs_->string(def->fields[1]) : "attr" + std::to_string(a.attribute));
    out += ':';
    if (a.type == kTypeString)
      appendName(out, defs_->string(a.value));
    else if (a.type == kTypeDouble && std::isfinite(asDouble(a.value)))
      appendDouble(out, asDouble(a.value));
    else
      appendInt(out, a.value);
  }
  out += '}';
}

}  // namespace mtf::chrome
