// The Paraver writer with its input in global time order (TraceSink::takeTimeOrder): the
// records before the earliest time a coming record can have are written as the events
// come, and only the few that wait for a later event are sorted (no runs on disk).
//
// The output is the very file location-after-location input gives: a record's place
// among records of equal time and rank is where that input would have given it
// (recordOrder), which the writer can tell only when every location's records come out
// the same in both orders: see canStream().
#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "converters/paraver/collectives.hpp"
#include "converters/paraver/paraver_writer.hpp"

namespace mtf::paraver {

namespace {

// Buffered records at which the writer releases those it may (then again this much later).
constexpr size_t kReleaseBytes = size_t{1} << 20;

// A value the writer wrote: signed, or a UINT64 metric value above INT64_MAX (its bits).
bool parseValue(std::string_view text, int64_t& value) {
  const char* end = text.data() + text.size();
  if (std::from_chars(text.data(), end, value).ec == std::errc()) return true;
  uint64_t bits = 0;
  if (std::from_chars(text.data(), end, bits).ec != std::errc()) return false;
  value = static_cast<int64_t>(bits);
  return true;
}

// The type:value pairs of an event line ("2:cpu:appl:task:thread:time:type:value..."), with
// where each value's text starts and ends; false if the line is not one.
bool eventPairs(std::string_view line, std::vector<TypeValue>& pairs,
                std::vector<std::pair<size_t, size_t>>& valueSpans) {
  pairs.clear();
  valueSpans.clear();
  if (!line.starts_with("2:")) return false;
  size_t at = 0;
  for (int field = 0; field < 6; ++field) {  // the record type, the place and the time
    at = line.find(':', at);
    if (at == std::string_view::npos) return false;
    ++at;
  }
  while (at < line.size()) {
    const size_t typeEnd = line.find(':', at);
    if (typeEnd == std::string_view::npos) return false;
    const size_t valueEnd = std::min(line.find(':', typeEnd + 1), line.size());
    TypeValue pair;
    if (std::from_chars(line.data() + at, line.data() + typeEnd, pair.first).ec != std::errc() ||
        !parseValue(line.substr(typeEnd + 1, valueEnd - typeEnd - 1), pair.second))
      return false;
    pairs.push_back(pair);
    valueSpans.emplace_back(typeEnd + 1, valueEnd);
    at = valueEnd + 1;
  }
  return true;
}

// Gives the collective ends (collectiveEndPairs) of event lines their renumbered
// communicator ids.
class CommunicatorRenumbering {
 public:
  explicit CommunicatorRenumbering(const std::vector<uint64_t>& renumbered)
      : renumbered_(renumbered) {}
  void operator()(std::string_view line, std::string& out);

 private:
  const std::vector<uint64_t>& renumbered_;
  const std::string commPair_ = ":" + std::to_string(kGlobalOpCommType) + ":";
  std::vector<TypeValue> pairs_;
  std::vector<std::pair<size_t, size_t>> spans_;
};

void CommunicatorRenumbering::operator()(std::string_view line, std::string& out) {
  std::vector<TypeValue>& pairs = pairs_;
  std::vector<std::pair<size_t, size_t>>& spans = spans_;
  if (line.find(commPair_) == std::string_view::npos || !eventPairs(line, pairs, spans)) {
    out.append(line);
    return;
  }
  size_t copied = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    CollectiveEnd end;
    const size_t taken = matchCollectiveEnd(pairs.data() + i, pairs.size() - i, end);
    if (taken == 0) continue;
    i += taken - 1;  // the communicator's pair, the last of the end's
    if (end.commId >= renumbered_.size()) continue;
    out.append(line.substr(copied, spans[i].first - copied));
    out.append(std::to_string(renumbered_[end.commId]));
    copied = spans[i].second;
  }
  out.append(line.substr(copied));
}

}  // namespace

bool ParaverWriter::takeTimeOrder() {
  uint64_t declared = 0;
  for (const LocationView& l : defs_->locations()) declared += l.declaredEvents;
  timeOrdered_ = streamable_ && declared >= timeOrderFromEvents_;
  if (timeOrdered_) openBody();
  return timeOrdered_;
}

// What makes the output depend on the order the locations interleave in:
// - a .prv.gz (written after the sort: not worth the case), records whose time or
//   logical time an attribute gives (a bound on the coming records' times fails);
// - messages matched by id, or FIFO per task where a task has several locations (the
//   pairs would change);
// (Communicator ids, handed out at first use, are renumbered at the end: finishBody.)
bool ParaverWriter::canStream() const {
  if (options_.compress || prvPath_.string().ends_with(".gz")) return false;
  if (timeAttr_ != kUndefinedRef || logicalSendAttr_ != kUndefinedRef ||
      logicalRecvAttr_ != kUndefinedRef ||
      findAttributeNamed(*defs_, kMessageIdAttribute) != kUndefinedRef)
    return false;
  return threadMessages_.declared() || tasksHaveOneLocation();
}

bool ParaverWriter::tasksHaveOneLocation() const {
  std::unordered_map<uint64_t, int> locationsOfTask;
  for (const LocationView& l : defs_->locations())
    if (++locationsOfTask[layout_->placeOf(l.id)->globalTask] > 1) return false;
  return true;
}

// The header's communicator lines if every communicator gets used, COMM_SELF by the first
// location only (a guess of the header's size, which the order of the ids does not
// change: when it is wrong, the file is copied once at the end).
std::vector<std::string> ParaverWriter::expectedCommunicatorLines() const {
  const std::vector<LocationView> locations = defs_->locations();
  if (layout_->paraverOrigin() || locations.empty()) return {};
  CommunicatorIds probe(*defs_, *ranks_, *layout_);
  for (const DefRecord& r : defs_->records())
    if (r.kind == DefKind::Comm)
      probe.idOf(static_cast<Ref>(r.field("self")), locations[0].id,
                 *layout_->placeOf(locations[0].id));
  return probe.lines();
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
  sorter_->release(bound, *body_);
  // The records kept are copied at each release: at most as many bytes as came since.
  nextRelease_ = 2 * sorter_->bufferedBytes() + kReleaseBytes;
}

void ParaverWriter::finishBody(const std::string& header, const std::vector<uint64_t>& renumbered) {
  sorter_->drain(*body_);
  if (renumbered.empty()) {
    body_->closeWithHead(header);
  } else {
    CommunicatorRenumbering renumbering(renumbered);
    body_->closeRewritingLines(header, std::ref(renumbering));
  }
  body_.reset();
}

}  // namespace mtf::paraver
