// The Paraver writer with its input in global time order (TraceSink::takeTimeOrder): the
// records before the earliest time a coming record can have are written as the events
// come, and only the few that wait for a later event are sorted (no runs on disk).
//
// The output is the very file location-after-location input gives: a record's place
// among records of equal time and rank is where that input would have given it
// (recordOrder), which the writer can tell only when every location's records come out
// the same in both orders: see canStream().
#include <algorithm>
#include <unordered_map>

#include "converters/paraver/paraver_writer.hpp"

namespace mtf::paraver {

namespace {

// Buffered records at which the writer releases those it may (then again this much later).
constexpr size_t kReleaseBytes = size_t{1} << 20;

}  // namespace

bool ParaverWriter::takeTimeOrder() {
  timeOrdered_ = streamable_;
  if (timeOrdered_) openBody();
  return timeOrdered_;
}

// What makes the output depend on the order the locations interleave in:
// - a .prv.gz (written after the sort: not worth the case), records whose time or
//   logical time an attribute gives (a bound on the coming records' times fails);
// - messages matched by id, or FIFO per task where a task has several locations (the
//   pairs would change);
// - communicator ids handed out at first use, with more than one to hand out.
bool ParaverWriter::canStream() const {
  if (options_.compress || prvPath_.string().ends_with(".gz")) return false;
  if (timeAttr_ != kUndefinedRef || logicalSendAttr_ != kUndefinedRef ||
      logicalRecvAttr_ != kUndefinedRef ||
      findAttributeNamed(*defs_, kMessageIdAttribute) != kUndefinedRef)
    return false;
  if (!threadMessages_.declared() && !tasksHaveOneLocation()) return false;
  return communicatorIdsFixed();
}

bool ParaverWriter::tasksHaveOneLocation() const {
  std::unordered_map<uint64_t, int> locationsOfTask;
  for (const LocationView& l : defs_->locations())
    if (++locationsOfTask[layout_->placeOf(l.id)->globalTask] > 1) return false;
  return true;
}

// Kept ids (a Paraver trace's own), or a single communicator with members.
bool ParaverWriter::communicatorIdsFixed() const {
  if (layout_->paraverOrigin()) return true;
  std::vector<Ref> comms;
  for (const DefRecord& r : defs_->records())
    if (r.kind == DefKind::Comm) comms.push_back(static_cast<Ref>(r.field("self")));
  return comms.empty() || (comms.size() == 1 && ranks_->members(comms[0]));
}

// The header's communicator line if the one communicator gets used (a guess of the
// header's size: when it is wrong, the file is copied once at the end).
std::vector<std::string> ParaverWriter::expectedCommunicatorLines() const {
  const std::vector<LocationView> locations = defs_->locations();
  if (layout_->paraverOrigin() || locations.empty()) return {};
  for (const DefRecord& r : defs_->records()) {
    if (r.kind != DefKind::Comm) continue;
    CommunicatorIds probe(*defs_, *ranks_, *layout_);
    probe.idOf(static_cast<Ref>(r.field("self")), locations[0].id,
               *layout_->placeOf(locations[0].id));
    return probe.lines();
  }
  return {};
}

void ParaverWriter::openBody() {
  body_ = std::make_unique<OutputFile>(prvPath_.string(), false);
  const Tick end = layout_->convertTime(defs_->clock.globalOffset + defs_->clock.traceLength);
  body_->reserveHead(layout_->headerText(end, expectedCommunicatorLines()).size());
  nextRelease_ = kReleaseBytes;
}

// Writes the records before the earliest time a coming record can have: the time of the
// coming events, of the open "2:" lines, of the states not yet ended, of the calls whose
// logical send time is their start, and of the sends waiting for their receive.
void ParaverWriter::releaseBefore(Tick eventTime) {
  Tick bound = layout_->convertTime(eventTime);
  for (const LocationState& s : states_) {
    if (s.lineOpen) bound = std::min(bound, s.lineTime);
    if (s.started) bound = std::min(bound, s.stateSince);
    if (s.mpiDepth > 0) bound = std::min(bound, s.callStart);
  }
  for (const auto& [key, queues] : messages_)
    if (!queues.sends.empty()) bound = std::min(bound, queues.sends.front().logical);
  sorter_->release(bound, [this](std::string_view line) { body_->line(line); });
  // The records kept are copied at each release: at most as many bytes as came since.
  nextRelease_ = 2 * sorter_->bufferedBytes() + kReleaseBytes;
}

void ParaverWriter::finishBody(const std::string& header) {
  sorter_->drain([this](std::string_view line) { body_->line(line); });
  body_->closeWithHead(header);
  body_.reset();
}

}  // namespace mtf::paraver
