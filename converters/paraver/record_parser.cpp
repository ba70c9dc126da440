#include "converters/paraver/record_parser.hpp"

#include <algorithm>
#include <limits>

#include "converters/paraver/collectives.hpp"
#include "converters/paraver/extrae.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

RecordParser::RecordParser(const Header& header, const ModelMapping& mapping,
                           const ReadOptions& options, const std::string& path,
                           RecordCounts& counts, TraceSink& sink)
    : header_(header),
      mapping_(mapping),
      options_(options),
      path_(path),
      counts_(counts),
      sink_(sink),
      locations_(header.threadCount()),
      rules_(header) {}

void RecordParser::line(std::string_view text, uint64_t lineNumber) {
  if (text.empty()) return;
  if (text[0] == '#') {
    ++counts_.comments;
    if (seenRecord_) ++counts_.lateComments;
    return;
  }
  if (isCommunicatorLine(text)) {
    if (seenRecord_) ++counts_.lateComments;  // a communicator line among records: not kept
    return;                                   // the header's ones are in the properties
  }
  lineNumber_ = lineNumber;
  tolerated_ = nullptr;
  // paraver-kernel ends a record at the line's end: a ':' after the last field is read
  // as nothing (the record is kept, written back without it).
  if (text.size() > 2 && text.back() == ':') text.remove_suffix(1);
  const char* problem = "unknown record type";
  if (text.size() >= 2 && text[1] == ':' && text[0] >= '1' && text[0] <= '4')
    problem = parseRecord(text[0], text.substr(2));
  seenRecord_ = true;
  if (tolerated_) return skipTolerated();
  if (!problem) return;
  if (options_.lenient) {
    ++counts_.skipped;
    auto& [count, firstLine] = counts_.skippedByProblem[problem];
    if (count++ == 0) firstLine = lineNumber;
    return;
  }
  throw InputError(path_, placeLine(lineNumber), problem);
}

const char* RecordParser::tolerate(const char* what) {
  tolerated_ = what;
  return nullptr;
}

void RecordParser::skipTolerated() {
  if (options_.strict)
    throw InputError(
        path_, placeLine(lineNumber_),
        std::string(tolerated_) + " (paraver-kernel reads such records; --strict refuses them)");
  auto& [count, firstLine] = counts_.toleratedByProblem[tolerated_];
  if (count++ == 0) firstLine = lineNumber_;
  ++counts_.tolerated;
}

const char* RecordParser::parseRecord(char type, std::string_view fields) {
  FieldCursor c(fields);
  switch (type) {
    case '1':
      return stateRecord(c);
    case '2':
      return eventRecord(c);
    case '3':
      return communicationRecord(c);
    default:
      return globalOpRecord(c);
  }
}

const char* RecordParser::parsePrefix(FieldCursor& c, Prefix& p) const {
  uint64_t appl = 0, task = 0, thread = 0;
  if (!c.nextUnsigned(p.cpu) || !c.nextUnsigned(appl) || !c.nextUnsigned(task) ||
      !c.nextUnsigned(thread))
    return "missing or non-numeric cpu:appl:task:thread";
  constexpr uint64_t kMax = std::numeric_limits<uint32_t>::max();
  p.location = appl > kMax || task > kMax || thread > kMax
                   ? kUndefinedId
                   : header_.locationOf(static_cast<uint32_t>(appl), static_cast<uint32_t>(task),
                                        static_cast<uint32_t>(thread));
  if (p.location == kUndefinedId) return "application, task or thread outside the header's range";
  p.appl = static_cast<uint32_t>(appl);
  p.task = static_cast<uint32_t>(task);
  return nullptr;
}

Refusal RecordParser::kernelVerdict(const Prefix& p) const {
  return rules_.checkCpu(p.cpu, header_.applications[p.appl - 1].tasks[p.task - 1].node);
}

void RecordParser::tallyRefusal(RecordKind kind, const Prefix& p) {
  counts_.kernelRefusals.add(kind, kernelVerdict(p), p.cpu, lineNumber_);
}

const char* RecordParser::stateRecord(FieldCursor& c) {
  Prefix p;
  if (const char* problem = parsePrefix(c, p)) return problem;
  uint64_t begin = 0, state = 0;
  int64_t end = 0;
  if (!c.nextUnsigned(begin) || !c.nextSigned(end) || !c.nextUnsigned(state))
    return "state record: missing or non-numeric begin:end:state";
  // paraver-kernel reads all of these (it ignores fields after the state, draws no end
  // for -1 and wraps a state to 32 bits); no format mtf writes holds them as they are.
  // A state that ends before it begins (PyCOMPSs writes a duration there) is kept: the
  // model's State holds its end as written, OTF2 as a region of no length with the end
  // in an attribute, Chrome as a slice of no length, Paraver as it was.
  if (!c.atEnd()) return tolerate("state record with fields after the state");
  if (end < 0) return tolerate("state record with a negative end (-1: no end)");
  if (state > std::numeric_limits<uint32_t>::max())
    return tolerate("state record with a state beyond 32 bits");
  ++counts_.states;
  tallyRefusal(RecordKind::State, p);
  event_.set(EventKind::State, p.location, begin, {static_cast<uint64_t>(end), state});
  addCpu(p.cpu, p.location);
  emit(false);
  return nullptr;
}

const char* RecordParser::eventRecord(FieldCursor& c) {
  Prefix p;
  if (const char* problem = parsePrefix(c, p)) return problem;
  uint64_t time = 0;
  if (!c.nextUnsigned(time)) return "event record: missing or non-numeric time";
  pairs_.clear();
  unsignedForms_.clear();
  while (!c.atEnd()) {
    uint64_t type = 0;
    int64_t value = 0;
    bool unsignedForm = false;
    if (!c.nextUnsigned(type)) return "event record: non-numeric event type";
    if (!c.nextEventValue(value, unsignedForm)) {
      if (c.overflowed()) return tolerate("event record with a value beyond 64 bits");
      return "event record: missing or non-numeric event value";
    }
    pairs_.emplace_back(type, value);
    unsignedForms_.push_back(unsignedForm);
  }
  // paraver-kernel reads such a line as no event at all.
  if (pairs_.empty()) return tolerate("event record without type:value");
  ++counts_.eventLines;
  counts_.eventPairs += pairs_.size();
  tallyRefusal(RecordKind::Event, p);
  LocationState& state = locations_[p.location];
  flushPending(state, time);
  bool first = true;
  for (size_t next = 0; next < pairs_.size();) {
    next += pairEvents(p, time, next);
    addCpu(p.cpu, p.location);
    // Two lines of the same thread at the same time stay two lines.
    if (first && state.lastWasPair && state.lastPairTime == time)
      addAttribute(mapping_.newLineAttribute, 1);
    first = false;
    emit(true);
  }
  return nullptr;
}

// Sets event_ from the pairs at `first`; returns how many it took.
size_t RecordParser::pairEvents(const Prefix& p, Tick time, size_t first) {
  if (mapping_.mtfCollectives)
    if (const size_t taken = collectiveEvent(p, time, first)) return taken;
  pairEvent(p.location, time, pairs_[first].first, pairs_[first].second, unsignedForms_[first]);
  return 1;
}

// mtf's own collective pairs (collectives.hpp), only in their exact form and with a
// communicator of the header: anything else stays Generic events.
size_t RecordParser::collectiveEvent(const Prefix& p, Tick time, size_t first) {
  const auto [type, value] = pairs_[first];
  if (type == kCollectiveBeginType && value == 1) {
    event_.set(EventKind::MpiCollectiveBegin, p.location, time, {});
    return 1;
  }
  CollectiveEnd end;
  const size_t taken = matchCollectiveEnd(pairs_.data() + first, pairs_.size() - first, end);
  if (taken == 0) return 0;
  const auto comm = mapping_.communicators.find({p.appl, end.commId});
  if (comm == mapping_.communicators.end()) return 0;
  event_.set(EventKind::MpiCollectiveEnd, p.location, time,
             {end.op, comm->second, end.root, end.sent, end.received});
  ++counts_.collectiveEnds;
  counts_.collectivePairs += taken;
  return taken;
}

// A value written above INT64_MAX (Extrae writes values unsigned) keeps its 64 bits: a
// counter's as a UINT64 metric value, so it is written back as it was; another type's as
// the Generic event's signed value, the value paraver-kernel reads (it wraps such digits),
// which the writer gives back in signed form, as paraver-kernel's own tools write it.
void RecordParser::pairEvent(LocationId location, Tick time, uint64_t type, int64_t value,
                             bool unsignedForm) {
  if (mapping_.beginEndTypes.count(type) || isMpiCallType(type) || isFunctionType(type)) {
    if (callEvent(location, time, type, value)) return;
  } else if (isCounterType(type)) {
    // Extrae's counters are non-negative deltas (UINT64); paraver-kernel's event values
    // are signed 64-bit, so a negative one (a signed metric of another format) stays a
    // metric value, typed INT64.
    const Ref metric = mapping_.metricOf(type);
    if (metric != kUndefinedRef) {
      event_.set(EventKind::Metric, location, time,
                 {metric, 1, value >= 0 || unsignedForm ? kTypeUint64 : kTypeInt64, bitsOf(value)});
      return;
    }
  }
  event_.set(EventKind::Generic, location, time, {type, bitsOf(value)});
}

// A value of a begin/end type enters its region, a 0 leaves the innermost open value of
// the type. A value the .pcf does not name is kept open too (as a Generic event), so
// that its 0 closes it, not an outer call. False: the pair stays a Generic event.
bool RecordParser::callEvent(LocationId location, Tick time, uint64_t type, int64_t value) {
  auto& open = locations_[location].open;
  if (value != 0) {
    const Ref region = mapping_.regionOf(type, value);
    open.emplace_back(type, region);
    if (region == kUndefinedRef) {
      ++counts_.unnamedValues;
      return false;
    }
    event_.set(EventKind::Enter, location, time, {region});
    return true;
  }
  const auto it = std::find_if(open.rbegin(), open.rend(),
                               [type](const auto& entry) { return entry.first == type; });
  if (it == open.rend()) {
    ++counts_.unopenedLeaves;
    return false;
  }
  const Ref region = it->second;
  open.erase(std::next(it).base());
  if (region == kUndefinedRef) return false;
  event_.set(EventKind::Leave, location, time, {region});
  return true;
}

const char* RecordParser::communicationRecord(FieldCursor& c) {
  Prefix send, recv;
  uint64_t logicalSend = 0, physicalSend = 0, logicalRecv = 0, physicalRecv = 0;
  int64_t size = 0, tag = 0;
  if (const char* problem = parsePrefix(c, send)) return problem;
  if (!c.nextUnsigned(logicalSend) || !c.nextUnsigned(physicalSend))
    return "communication record: missing or non-numeric send times";
  if (const char* problem = parsePrefix(c, recv)) return problem;
  if (!c.nextUnsigned(logicalRecv) || !c.nextUnsigned(physicalRecv) || !c.nextSigned(size) ||
      !c.nextSigned(tag))
    return "communication record: missing or non-numeric receive times, size or tag";
  // paraver-kernel reads these (it ignores fields after the tag; size and tag are signed
  // 64-bit there); OTF2 holds neither a negative size nor a tag beyond 32 bits.
  if (!c.atEnd()) return tolerate("communication record with fields after the tag");
  if (size < 0 || tag < 0 || tag > std::numeric_limits<uint32_t>::max())
    return tolerate("communication record with a negative size or tag, or a tag beyond 32 bits");
  ++counts_.communications;
  // paraver-kernel skips the whole record if either end is refused: count it once.
  tallyRefusal(RecordKind::Communication, kernelVerdict(send) != Refusal::None ? send : recv);
  const uint64_t senderRank = header_.globalTaskOf(send.appl, send.task);
  const uint64_t receiverRank = header_.globalTaskOf(recv.appl, recv.task);
  ChannelOrder::State* channel = channels_.admit(
      {send.location, recv.location, static_cast<uint64_t>(tag)}, physicalSend, physicalRecv);
  const uint64_t messageId = channel ? 0 : counts_.communications;
  // The send when the message left (Extrae: the end of the send call; Extrae sorts its
  // communication records by that time), the receive when the message has arrived.
  event_.set(
      EventKind::MpiSend, send.location, physicalSend,
      {receiverRank, mapping_.world, static_cast<uint64_t>(tag), static_cast<uint64_t>(size)});
  addCpu(send.cpu, send.location);
  if (physicalSend != logicalSend) addAttribute(mapping_.logicalSendAttribute, logicalSend);
  addMessageAttributes(recv, messageId);
  queueEvent(channel);
  event_.set(EventKind::MpiRecv, recv.location, physicalRecv,
             {senderRank, mapping_.world, static_cast<uint64_t>(tag), static_cast<uint64_t>(size)});
  addCpu(recv.cpu, recv.location);
  if (logicalRecv != physicalRecv) addAttribute(mapping_.logicalRecvAttribute, logicalRecv);
  addMessageAttributes(send, messageId);
  queueEvent(channel);
  return nullptr;
}

// MPItrace's global operation ids follow Dimemas' numbering of MPI collectives (0 Barrier,
// 1 Bcast, 2 Gather, 3 Gatherv, 4 Scatter, 5 Scatterv, 6 Allgather, 7 Allgatherv,
// 8 Alltoall, 9 Alltoallv, 10 Reduce, 11 Allreduce, 12 Reduce_scatter, 13 Scan), which is
// OTF2's up to 9 and for 11; OTF2 puts Alltoallw at 10 and Reduce at 12. The real qsort
// trace confirms 1, 10 and 11 (its records inside MPI_Bcast, MPI_Reduce, MPI_Allreduce).
// Ids past 13 are not known: the low byte is kept as it is.
namespace {

uint64_t globalOpAsOtf2(uint64_t id) {
  constexpr uint64_t kOtf2Reduce = 12, kOtf2ReduceScatter = 13, kOtf2Scan = 14;
  switch (id) {
    case 10:
      return kOtf2Reduce;
    case 12:
      return kOtf2ReduceScatter;
    case 13:
      return kOtf2Scan;
    default:
      return id & 0xFF;
  }
}

}  // namespace

// 4:cpu:appl:task:thread:time:comm:send_size:recv_size:global_op_id:root
const char* RecordParser::globalOpRecord(FieldCursor& c) {
  Prefix p;
  uint64_t time = 0, comm = 0, sent = 0, received = 0, op = 0, root = 0;
  // paraver-kernel ignores type-4 records whatever they hold: a bad one is skipped.
  if (parsePrefix(c, p)) return tolerate("global operation record with a bad cpu:appl:task:thread");
  if (!c.nextUnsigned(time) || !c.nextUnsigned(comm) || !c.nextUnsigned(sent) ||
      !c.nextUnsigned(received) || !c.nextUnsigned(op) || !c.nextUnsigned(root))
    return tolerate("global operation record with a missing or non-numeric field");
  if (!c.atEnd()) return tolerate("global operation record with too many fields");
  if (root > std::numeric_limits<uint32_t>::max())
    return tolerate("global operation record with a root beyond 32 bits");
  ++counts_.globalOps;
  const auto it = mapping_.communicators.find({p.appl, comm});
  const Ref commRef = it == mapping_.communicators.end() ? mapping_.world : it->second;
  event_.set(EventKind::MpiCollectiveBegin, p.location, time, {});
  addCpu(p.cpu, p.location);
  addAttribute(mapping_.globalOpAttribute, op);  // part of the record (the writer skips it)
  emit(false);
  // The op field is OTF2's collective op (globalOpAsOtf2); the exact id and the comm id
  // ride along as attributes, so the writer writes the record back as it was.
  event_.set(EventKind::MpiCollectiveEnd, p.location, time,
             {globalOpAsOtf2(op), commRef, root, sent, received});
  addCpu(p.cpu, p.location);
  addAttribute(mapping_.globalOpAttribute, op);
  addAttribute(mapping_.commIdAttribute, comm);
  emit(false);
  return nullptr;
}

// The partner thread when it is not its rank's location (the task's first thread), and the
// message id (> 0) of a record the default matching would not give back (thread_messages.hpp).
void RecordParser::addMessageAttributes(const Prefix& peer, uint64_t messageId) {
  if (peer.location != header_.locationOf(peer.appl, peer.task, 1))
    addAttribute(mapping_.peerThreadAttribute, peer.location);
  if (messageId) addAttribute(mapping_.messageIdAttribute, messageId);
}

void RecordParser::addCpu(uint64_t cpu, LocationId location) {
  if (cpu != location + 1) addAttribute(mapping_.cpuAttribute, cpu);
}

void RecordParser::addAttribute(Ref attribute, uint64_t value) {
  const uint8_t type = attribute == mapping_.newLineAttribute ? kTypeUint8 : kTypeUint64;
  event_.attributes.push_back({attribute, type, value});
}

void RecordParser::emit(bool isPair) {
  LocationState& state = locations_[event_.location];
  const Tick recordTime = event_.time;  // deliver() may move the event later
  flushPending(state, recordTime);
  deliver(state, event_);
  state.lastWasPair = isPair;
  state.lastPairTime = recordTime;
}

// Hands `e` to the sink; an event earlier than its location's last one (a file that is
// not sorted by time) is moved to that time, its own time kept in an attribute.
void RecordParser::deliver(LocationState& state, Event& e) {
  if (e.time < state.lastTime) {
    e.attributes.push_back({mapping_.timeAttribute, kTypeUint64, e.time});
    e.time = state.lastTime;
    ++counts_.delayed;
  }
  state.lastTime = e.time;
  sink_.event(e);
}

void RecordParser::flushPending(LocationState& state, Tick upTo) {
  while (state.pendingHead < state.pending.size() &&
         state.pending[state.pendingHead].time <= upTo) {
    const PendingMessage& m = state.pending[state.pendingHead];
    pendingEvent_.kind = m.kind;
    pendingEvent_.location = static_cast<LocationId>(&state - locations_.data());
    pendingEvent_.time = m.time;
    pendingEvent_.fields.assign(m.fields, m.fields + 4);
    pendingEvent_.attributes.assign(m.attributes, m.attributes + m.attributeCount);
    deliver(state, pendingEvent_);
    channels_.delivered(m.channel);
    state.lastWasPair = false;
    ++state.pendingHead;
  }
  if (state.pendingHead == state.pending.size()) {
    state.pending.clear();
    state.pendingHead = 0;
  }
}

// A message event in the future of its location waits until the file reaches its time.
void RecordParser::queueEvent(ChannelOrder::State* channel) {
  PendingMessage m{event_.kind, event_.time, {}, 0, {}, channel};
  std::copy(event_.fields.begin(), event_.fields.end(), m.fields);
  for (const EventAttribute& a : event_.attributes) m.attributes[m.attributeCount++] = a;
  LocationState& state = locations_[event_.location];
  auto& queue = state.pending;
  if (state.pendingHead > 1024 && state.pendingHead * 2 > queue.size()) {  // drop delivered
    queue.erase(queue.begin(), queue.begin() + static_cast<ptrdiff_t>(state.pendingHead));
    state.pendingHead = 0;
  }
  const auto position =
      std::upper_bound(queue.begin() + static_cast<ptrdiff_t>(state.pendingHead), queue.end(),
                       m.time, [](Tick t, const PendingMessage& p) { return t < p.time; });
  queue.insert(position, m);
}

void RecordParser::finish() {
  for (LocationState& state : locations_) flushPending(state, ~Tick{0});
}

}  // namespace mtf::paraver
