#include "converters/paraver/paraver_writer.hpp"

#include <algorithm>

#include "converters/paraver/collectives.hpp"
#include "converters/paraver/extrae.hpp"
#include "converters/paraver/output_file.hpp"
#include "converters/paraver/writer_records.hpp"
#include "util/decimal.hpp"
#include "util/error.hpp"

namespace mtf::paraver {

using records::appendField;
using records::kEventRank;
using records::kStateRank;
using records::startRecord;
using records::streamOf;

namespace {

constexpr size_t kSortMemory = size_t{64} << 20;

bool endsWith(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Ref findAttribute(const Definitions& defs, std::string_view name) {
  return findAttributeNamed(defs, name);
}

}  // namespace

ParaverWriter::ParaverWriter(std::filesystem::path path, const WriteOptions& options)
    : prvPath_(std::move(path)), options_(options) {
  if (options_.compress && !endsWith(prvPath_.string(), ".gz")) prvPath_ += ".gz";
}

ParaverWriter::~ParaverWriter() = default;

void ParaverWriter::begin(const Definitions& defs) {
  defs_ = &defs;
  layout_ = std::make_unique<WriterLayout>(defs);
  ranks_ = std::make_unique<RankMap>(defs);
  sorter_ = std::make_unique<RecordSorter>(prvPath_, kSortMemory);
  comms_ = std::make_unique<CommunicatorIds>(defs, *ranks_, *layout_);
  uint64_t places = 0;
  for (const LocationView& l : defs.locations())
    places = std::max(places, layout_->placeOf(l.id)->slot);
  states_.clear();
  states_.resize(places);
  uint64_t position = 0;
  for (const LocationView& l : defs.locations())
    states_[layout_->placeOf(l.id)->slot - 1].position = position++;
  cpuAttr_ = findAttribute(defs, kCpuAttribute);
  newLineAttr_ = findAttribute(defs, kNewLineAttribute);
  logicalSendAttr_ = findAttribute(defs, kLogicalSendAttribute);
  timeAttr_ = findAttribute(defs, kTimeAttribute);
  logicalRecvAttr_ = findAttribute(defs, kLogicalRecvAttribute);
  globalOpAttr_ = findAttribute(defs, kGlobalOpAttribute);
  commIdAttr_ = findAttribute(defs, kCommIdAttribute);
  threadMessages_ = ThreadMessageAttributes(defs);
  timeOrdered_ = false;
  phase_ = 0;
  body_.reset();
  streamable_ = canStream();
}

bool ParaverWriter::attribute(const Event& e, Ref attribute, uint64_t& value) const {
  // Most events carry none of the attributes asked (three a record): no call then.
  if (attribute == kUndefinedRef || e.attributes.empty()) return false;
  return attributeValue(e, attribute, value);
}

void ParaverWriter::event(const Event& e) {
  const ThreadPlace* place = layout_->placeOf(e.location);
  if (!place) {
    ++losses_["events of locations the definitions do not declare"];
    return;
  }
  if (timeOrdered_ && sorter_->bufferedBytes() >= nextRelease_) releaseBefore(e.time);
  LocationState& state = states_[place->slot - 1];
  uint64_t cpu = place->cpu;
  attribute(e, cpuAttr_, cpu);
  if (!place->acceptsCpu(cpu)) {
    cpu = place->fallbackCpu;
    ++refusedCpus_;
  }
  uint64_t time = e.time;
  const bool moved = attribute(e, timeAttr_, time);
  const Tick converted = layout_->convertTime(time);
  const Context c{e,
                  *place,
                  state,
                  converted,
                  moved ? std::max(converted, layout_->convertTime(e.time)) : converted,
                  cpu};
  if (!layout_->exactTime()) ++roundedTimes_;
  if (!state.started) {
    state.started = true;
    state.stateSince = c.time;
    expectStateRecord(state);
  }
  state.lastTime = std::max(state.lastTime, c.time);
  dispatch(c);
}

// Pairs join the location's open "2:" line; other records close it first.
void ParaverWriter::dispatch(const Context& c) {
  const Event& e = c.e;
  uint64_t op = 0;
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Leave:
      return callEvent(c);
    case EventKind::Metric:
      return metricEvent(c);
    case EventKind::Generic:
      genericTypes_[e.fields[0]] = true;
      return addPair(c, e.fields[0], asSigned(e.fields[1]));
    case EventKind::MpiCollectiveBegin:
      return collectiveBeginEvent(c);
    case EventKind::MpiCollectiveEnd:
      if (!attribute(e, globalOpAttr_, op)) return collectiveEndEvent(c);
      break;
    default:
      break;
  }
  closeLine(c.state);
  if (e.kind == EventKind::State) return stateEvent(c);
  if (isSend(e.kind) || isRecv(e.kind)) return messageEvent(c, isSend(e.kind));
  otherEvent(c);
}

void ParaverWriter::otherEvent(const Context& c) {
  if (c.e.kind == EventKind::MpiCollectiveEnd) return globalOpEvent(c);  // a type-4 record
  ++losses_[std::string(nameOf(c.e.kind)) + " events (no Paraver record)"];
}

// See collectives.hpp for the pairs. The begin of a type-4 record (it has the record's op
// id too) is written by its end, as the whole record.
void ParaverWriter::collectiveBeginEvent(const Context& c) {
  uint64_t op = 0;
  if (attribute(c.e, globalOpAttr_, op)) return;
  wroteCollectives_ = true;
  addPair(c, kCollectiveBeginType, "1");
}

void ParaverWriter::collectiveEndEvent(const Context& c) {
  wroteCollectives_ = true;
  CollectiveEnd end;
  end.op = static_cast<uint8_t>(c.e.fields[0]);
  // Time-ordered input: where location-after-location input would have met it.
  const uint64_t useOrder = timeOrdered_ ? (c.state.position << 35) | c.state.records : 0;
  end.commId = comms_->idOf(static_cast<Ref>(c.e.fields[1]), c.e.location, c.place, useOrder);
  end.root = c.e.fields[2];
  end.sent = c.e.fields[3];
  end.received = c.e.fields[4];
  if (end.commId == 0)
    ++losses_
        ["MpiCollectiveEnd events whose communicator Paraver cannot name (written with "
         "communicator 0, read back as Generic events)"];
  TypeValue pairs[5];
  const size_t count = collectiveEndPairs(end, pairs);
  for (size_t i = 0; i < count; ++i) addPair(c, pairs[i].first, pairs[i].second);
}

void ParaverWriter::callEvent(const Context& c) {
  const CallCode* call = layout_->callOf(static_cast<Ref>(c.e.fields[0]));
  if (!call) {
    ++losses_["Enter/Leave of undefined regions"];
    return;
  }
  const bool enter = c.e.kind == EventKind::Enter;
  if (call->mpi && !layout_->paraverOrigin()) {
    // Extrae-style states: the call's state from the outermost MPI enter to its leave.
    if (enter && c.state.mpiDepth++ == 0) {
      changeState(c.state, c.place, c.time, call->state);
      c.state.callStart = c.time;
    } else if (!enter && c.state.mpiDepth > 0 && --c.state.mpiDepth == 0) {
      changeState(c.state, c.place, c.time, 1);
    }
  }
  openLine(c) += enter ? call->enterPair : call->leavePair;
}

void ParaverWriter::metricEvent(const Context& c) {
  const std::vector<uint64_t>* types = layout_->countersOf(c.e.fields[0]);
  const size_t count = c.e.fields[1];
  if (!types || types->size() < count || c.e.fields.size() < 2 + 2 * count) {
    ++losses_["Metric events of undefined metrics"];
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const uint64_t valueType = c.e.fields[2 + 2 * i];
    const uint64_t bits = c.e.fields[3 + 2 * i];
    TextBuffer& line = openLine(c);
    appendField(line, (*types)[i]);
    if (valueType == kTypeInt64) {
      line.appendDecimal(asSigned(bits), ':');
    } else if (valueType == 10 /* OTF2_TYPE_DOUBLE */) {
      line.appendDecimal(static_cast<int64_t>(asDouble(bits) + (asDouble(bits) < 0 ? -0.5 : 0.5)),
                         ':');
      ++losses_["floating-point metric values rounded to integers"];
    } else {
      appendField(line, bits);
    }
  }
}

// Appends "cpu:appl:task:thread" to `out`, formatted once per location and CPU.
void ParaverWriter::appendPlace(TextBuffer& out, uint64_t cpu, const ThreadPlace& place) {
  LocationState& s = states_[place.slot - 1];
  if (s.placeText.empty() || s.placeCpu != cpu) {
    s.placeCpu = cpu;
    s.placeText.clear();
    s.placeText.appendDecimal(cpu);
    appendField(s.placeText, place.appl);
    appendField(s.placeText, place.task);
    appendField(s.placeText, place.thread);
  }
  out += s.placeText;
}

// Appends ":time", copied when it is the last state record's end (formatted once).
void ParaverWriter::appendTime(TextBuffer& out, const LocationState& s, Tick time) {
  if (time == s.endTextTime && !s.endText.empty()) {
    out += s.endText;
  } else {
    appendField(out, time);
  }
}

void ParaverWriter::addPair(const Context& c, uint64_t type, std::string_view value) {
  TextBuffer& line = openLine(c);
  appendField(line, type);
  line += ':';
  line.append(value);
}

void ParaverWriter::addPair(const Context& c, uint64_t type, int64_t value) {
  TextBuffer& line = openLine(c);
  appendField(line, type);
  line.appendDecimal(value, ':');
}

TextBuffer& ParaverWriter::openLine(const Context& c) {
  LocationState& s = c.state;
  uint64_t newLine = 0;
  if (s.lineOpen &&
      (s.lineTime != c.time || s.lineCpu != c.cpu || attribute(c.e, newLineAttr_, newLine)))
    closeLine(s);
  if (!s.lineOpen) {
    s.lineOpen = true;
    s.lineTime = c.time;
    s.lineSortTime = c.sortTime;
    // A Paraver trace's line goes where its first event came, before the records that
    // other locations give while it stays open.
    if (keepsFileOrder()) s.lineOrder = sorter_->reserveOrder();
    s.lineCpu = c.cpu;
    startRecord(s.line, 2);
    appendPlace(s.line, c.cpu, c.place);
    appendTime(s.line, s, c.time);
  }
  return s.line;
}

void ParaverWriter::closeLine(LocationState& s) {
  if (!s.lineOpen) return;
  if (keepsFileOrder()) {
    sorter_->addOrdered(s.lineSortTime, kEventRank, streamOf(&s - states_.data(), kEventRank),
                        s.lineOrder, s.line);
  } else {
    addRecord(s.lineSortTime, kEventRank, s, s.line);
  }
  s.lineOpen = false;
}

void ParaverWriter::addRecord(Tick time, uint8_t rank, LocationState& emitter,
                              const TextBuffer& line, bool late) {
  const size_t stream = streamOf(&emitter - states_.data(), rank);
  if (timeOrdered_) {
    sorter_->addOrdered(time, rank, stream, recordOrder(emitter), line, late);
  } else {
    sorter_->add(time, rank, stream, line, late);
  }
}

// The record of the state since s.stateSince (derived states) comes at the state's end.
void ParaverWriter::expectStateRecord(LocationState& s) {
  if (!layout_->paraverOrigin())
    sorter_->expectLate(streamOf(&s - states_.data(), kStateRank), s.stateSince);
}

void ParaverWriter::stateEvent(const Context& c) {
  stateRecord(c.place, c.cpu, c.time, layout_->convertTime(c.e.fields[0]), c.e.fields[1], false,
              c.sortTime);
}

void ParaverWriter::stateRecord(const ThreadPlace& place, uint64_t cpu, Tick begin, Tick end,
                                uint64_t state, bool late, Tick sortTime) {
  TextBuffer& line = record_;
  LocationState& s = states_[place.slot - 1];
  startRecord(line, 1);
  appendPlace(line, cpu, place);
  appendTime(line, s, begin);
  s.endText.clear();
  appendField(s.endText, end);
  s.endTextTime = end;
  line += s.endText;
  appendField(line, state);
  // A Paraver trace's states keep their place among the thread's events at equal times
  // (PyCOMPSs writes some before the events of their time); derived ones go after them.
  addRecord(sortTime, layout_->paraverOrigin() ? kEventRank : kStateRank, s, line, late);
}

void ParaverWriter::changeState(LocationState& s, const ThreadPlace& place, Tick time,
                                uint32_t next) {
  if (time > s.stateSince)
    stateRecord(place, place.cpu, s.stateSince, time, s.state, true, s.stateSince);
  s.state = next;
  s.stateSince = std::max(s.stateSince, time);
  expectStateRecord(s);
}

// 4:cpu:appl:task:thread:time:comm:send_size:recv_size:global_op_id:root
void ParaverWriter::globalOpEvent(const Context& c) {
  uint64_t op = 0, commId = 0;
  attribute(c.e, globalOpAttr_, op);
  attribute(c.e, commIdAttr_, commId);
  TextBuffer& line = record_;
  startRecord(line, 4);
  appendPlace(line, c.cpu, c.place);
  appendField(line, c.time);
  appendField(line, commId);
  appendField(line, c.e.fields[3]);
  appendField(line, c.e.fields[4]);
  appendField(line, op);
  appendField(line, c.e.fields[2]);
  addRecord(c.sortTime, kEventRank, c.state, line);
}

void ParaverWriter::end() {
  Tick endTime = 0;
  phase_ = 1;
  for (const LocationView& l : defs_->locations()) {
    const ThreadPlace* place = layout_->placeOf(l.id);
    LocationState& s = states_[place->slot - 1];
    closeLine(s);
    if (!layout_->paraverOrigin() && s.started && s.lastTime > s.stateSince)
      stateRecord(*place, place->cpu, s.stateSince, s.lastTime, s.state, true, s.stateSince);
    endTime = std::max(endTime, s.lastTime);
  }
  uint64_t unmatched = 0;
  for (const auto& [key, queues] : messages_)
    unmatched += queues.sends.size() + queues.receives.size();
  unmatched += messagesById_.size();
  if (unmatched)
    losses_["sends or receives without a partner (no communication record)"] = unmatched;
  if (refusedCpus_)
    losses_
        ["events whose Paraver CPU is not a CPU of their thread's node in the header "
         "(paraver-kernel would skip the record): written with the thread's own CPU, or 0"] =
            refusedCpus_;
  if (roundedTimes_)
    losses_["timestamps rounded to nanoseconds (clock resolution " +
            std::to_string(defs_->clock.resolution) + "/s does not divide 1e9)"] = roundedTimes_;
  endTime =
      std::max(endTime, layout_->convertTime(defs_->clock.globalOffset + defs_->clock.traceLength));
  const std::vector<uint64_t> renumbered = comms_->settle();
  const std::string header = layout_->headerText(endTime, comms_->lines());
  if (body_) {
    finishBody(header, renumbered);
  } else {
    OutputFile prv(prvPath_.string(), endsWith(prvPath_.string(), ".gz"));
    prv.write(header);
    sorter_->drain(prv);
    prv.close();
  }
  writeSmallFile(companionPath(prvPath_.string(), ".pcf"),
                 layout_->pcfText(genericTypes_, wroteCollectives_));
  const std::string row = layout_->rowText();
  if (!row.empty()) writeSmallFile(companionPath(prvPath_.string(), ".row"), row);
}

}  // namespace mtf::paraver
