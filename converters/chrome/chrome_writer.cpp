#include "converters/chrome/chrome_writer.hpp"

#include <map>

#include "converters/chrome/json_text.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::chrome {
namespace {

// OTF2_Paradigm values, as the category of a call.
std::string paradigmCategory(Paradigm paradigm) {
  static const char* const kNames[] = {
      "unknown",   "user",     "compiler", "openmp",  "mpi", "cuda",   "measurement", "pthread",
      "hmpp",      "ompss",    "hardware", "gaspi",   "upc", "shmem",  "winthread",   "qtthread",
      "acethread", "tmthread", "opencl",   "openacc", "io",  "kokkos", "hip"};
  const auto index = static_cast<size_t>(paradigm);
  if (index < std::size(kNames)) return kNames[index];
  return "paradigm" + std::to_string(index);
}

}  // namespace

ChromeWriter::ChromeWriter(const fs::path& path, const WriteOptions& options)
    : path_(path), options_(options) {
  // --compress on a plain name writes NAME.gz, as the Paraver writer does.
  if (options.compress && !path_.string().ends_with(".gz")) path_ += ".gz";
  gzip_ = path_.string().ends_with(".gz");
}

void ChromeWriter::begin(const Definitions& defs) {
  defs_ = &defs;
  ranks_.emplace(defs);
  threadMessages_ = ThreadMessageAttributes(defs);
  clock_.emplace(defs.clock.resolution, defs.clock.globalOffset);
  out_ = std::make_unique<JsonOutput>(path_.string(), gzip_);
  flowEndsPath_ = path_.string() + ".flow-ends.tmp";
  flowEnds_ = std::make_unique<JsonOutput>(flowEndsPath_, false);
  collectNames(defs);
  stateNames_.emplace(defs.info);
  writeHeader(defs);
  placeLocations(defs);
}

void ChromeWriter::collectNames(const Definitions& defs) {
  std::vector<uint64_t> members;
  for (const DefRecord& r : defs.records()) {
    const Ref self = r.fields.empty() ? kUndefinedRef : static_cast<Ref>(r.fields[0]);
    if (r.kind == DefKind::Region) {
      const RegionView view = defs.region(self);
      bool replaced = false;
      regions_[self] = {jsonString(view.name, &replaced),
                        jsonString(paradigmCategory(view.paradigm))};
      if (replaced) lose("names with bytes that are not UTF-8 (replaced by U+FFFD)");
    } else if (r.kind == DefKind::MetricMember) {
      memberNames_[self] = jsonString(defs.string(r.fields[1]));
    } else if (defs.metricMembersOf(r, members)) {
      metricMembers_[self].assign(members.begin(), members.end());
    }
  }
}

void ChromeWriter::writeHeader(const Definitions& defs) {
  std::string& b = out_->buffer();
  b += "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"writer\":\"mtf\",\"source_format\":";
  appendName(b, defs.info.format);
  b += ",\"creator\":";
  appendName(b, defs.info.creator);
  b += ",\"clock_resolution\":";
  appendInt(b, defs.clock.resolution);
  b += ",\"time_origin_ticks\":";
  appendInt(b, defs.clock.globalOffset);
  b += "},\n\"traceEvents\":[\n";
}

// pid: the location group's number in definition order; tid: the location's number.
// Both small and unique, whatever the trace's own (possibly 2^37-sized) ids.
void ChromeWriter::placeLocations(const Definitions& defs) {
  std::map<uint64_t, uint32_t> pidOfGroup;
  uint32_t tid = 0;
  for (const LocationView& l : defs.locations()) {
    const auto [it, added] = pidOfGroup.emplace(l.group, static_cast<uint32_t>(pidOfGroup.size()));
    const uint32_t pid = it->second;
    Lane& lane = lanes_[l.id];
    lane.id = l.id;
    lane.rank = ranks_->worldRank(l.id);
    lane.place = "\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",";
    lane.seriesId = "\"id\":\"" + std::to_string(tid) + "\",";
    lane.tid = tid;
    lane.name = l.name;
    std::string& b = out_->buffer();
    if (added) {
      const DefRecord* group = defs.find(DefKind::LocationGroup, l.group);
      record(b, lane, "M", 0) += "\"name\":\"process_name\",\"args\":{\"name\":";
      appendName(b, group ? defs.string(group->fields[1]) : "process");
      b += "}}";
      record(b, lane, "M", 0) += "\"name\":\"process_sort_index\",\"args\":{\"sort_index\":";
      appendInt(b, pid);
      b += "}}";
    }
    record(b, lane, "M", 0) += "\"name\":\"thread_name\",\"args\":{\"name\":";
    appendName(b, l.name);
    b += "}}";
    record(b, lane, "M", 0) += "\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":";
    appendInt(b, tid);
    b += "}}";
    ++tid;
  }
  nextTid_ = tid;
}

void ChromeWriter::appendName(std::string& out, std::string_view text) {
  if (!appendJsonString(out, text))
    lose("names with bytes that are not UTF-8 (replaced by U+FFFD)");
}

// Starts a record: separator, phase, place and time; the caller appends the rest,
// ending with '}'. Name-value pairs after "ts" each end with ','. An "M" record's
// braces are closed by the caller after its args.
std::string& ChromeWriter::record(std::string& out, const Lane& lane, const char* phase,
                                  int64_t ns) {
  if (&out == &out_->buffer()) {
    if (!firstRecord_) out += ",\n";
    firstRecord_ = false;
  } else {
    out += ",\n";
  }
  out += "{\"ph\":\"";
  out += phase;
  out += "\",";
  out += lane.place;
  out += "\"ts\":";
  MicroClock::appendMicros(out, ns);
  out += ',';
  return out;
}

ChromeWriter::Lane* ChromeWriter::laneOf(LocationId location) {
  if (lastLane_ && lastLane_->id == location) return lastLane_;
  const auto it = lanes_.find(location);
  lastLane_ = it == lanes_.end() ? nullptr : &it->second;
  return lastLane_;
}

const ChromeWriter::Names& ChromeWriter::regionNames(Ref region) {
  const auto it = regions_.find(region);
  if (it != regions_.end()) return it->second;
  return regions_[region] = {jsonString("region " + std::to_string(region)), "\"unknown\""};
}

void ChromeWriter::event(const Event& e) {
  Lane* lane = laneOf(e.location);
  if (!lane) return lose("events of undefined locations");
  const int64_t ns = clock_->nanoseconds(e.time);
  switch (e.kind) {
    case EventKind::Enter:
      enter(*lane, e, ns);
      break;
    case EventKind::Leave:
      leave(*lane, e, ns);
      break;
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
      message(*lane, e, ns);
      break;
    case EventKind::MpiCollectiveBegin:
      lane->collectives.push_back(ns);
      break;
    case EventKind::MpiCollectiveEnd:
      collectiveEnd(*lane, e, ns);
      break;
    case EventKind::Metric:
      metric(*lane, e, ns);
      break;
    case EventKind::State:
      state(*lane, e, ns);
      break;
    default:
      instant(*lane, e, ns);
      break;
  }
  out_->maybeFlush();
  flowEnds_->maybeFlush();
}

void ChromeWriter::enter(Lane& lane, const Event& e, int64_t ns) {
  if (!e.attributes.empty()) lose("attributes of Enter/Leave events");
  lane.calls.push_back({static_cast<Ref>(e.fields[0]), ns});
}

// The call becomes one "X" event; a leave of another region than the open one closes
// the open call (as every reader of the model does) and names what it left in args.
void ChromeWriter::leave(Lane& lane, const Event& e, int64_t ns) {
  if (!e.attributes.empty()) lose("attributes of Enter/Leave events");
  const Ref left = static_cast<Ref>(e.fields[0]);
  std::string& b = out_->buffer();
  if (lane.calls.empty()) {
    const Names& names = regionNames(left);
    record(b, lane, "E", ns) += "\"cat\":" + names.category + ",\"name\":" + names.name + "}";
    return;
  }
  const OpenCall call = lane.calls.back();
  lane.calls.pop_back();
  const Names& names = regionNames(call.region);
  record(b, lane, "X", call.ns) += "\"dur\":";
  MicroClock::appendMicros(b, ns - call.ns);
  b += ",\"cat\":";
  b += names.category;
  b += ",\"name\":";
  b += names.name;
  if (left != call.region) b += ",\"args\":{\"left\":" + regionNames(left).name + "}";
  b += '}';
}

void ChromeWriter::finishLanes() {
  std::string& b = out_->buffer();
  for (auto& [id, lane] : lanes_) {
    for (const OpenCall& call : lane.calls) {  // calls never left: begins without an end
      const Names& names = regionNames(call.region);
      record(b, lane, "B", call.ns) +=
          "\"cat\":" + names.category + ",\"name\":" + names.name + "}";
      out_->maybeFlush();
    }
    for (const int64_t begin : lane.collectives)
      record(b, lane, "i", begin) +=
          "\"s\":\"t\",\"cat\":\"collective\",\"name\":"
          "\"MpiCollectiveBegin\"}";
    lane.calls.clear();
    lane.collectives.clear();
  }
}

void ChromeWriter::end() {
  finishLanes();
  flowEnds_->close();
  flowEnds_.reset();
  // Every "s" is now in the output; the spooled "f" events follow (their separators are
  // already in the spool; without any record before them the first one is dropped).
  appendFileTo(flowEndsPath_, *out_, firstRecord_ ? 2 : 0);
  out_->write("\n]}\n");
  out_->close();
  out_.reset();
  if (const uint64_t n = clock_->rounded())
    lose("times not a whole number of nanoseconds (rounded)", n);
  if (const uint64_t n = clock_->beyondDoublePrecision())
    lose("times more than 2^53 ns from the trace's start (viewers reading doubles round them)", n);
}

LossReport ChromeWriter::losses() const {
  return losses_;
}

}  // namespace mtf::chrome
