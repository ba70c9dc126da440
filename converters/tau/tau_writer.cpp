#include "converters/tau/tau_writer.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "converters/tau/tau_files.hpp"
#include "converters/tau/tau_model.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {
namespace {

constexpr uint8_t kOtf2TypeUint64 = 4, kOtf2TypeInt64 = 8, kOtf2TypeDouble = 10;
constexpr uint64_t kMicrosPerSecond = 1'000'000;
constexpr uint64_t kRegionKey = 1ull << 40, kMemberKey = 2ull << 40;

std::optional<EdfIdentity> identityFromLine(std::string_view description,
                                            std::string_view rawName) {
  const std::optional<EdfEntry> e = parseEdfLine(description);
  if (!e || e->name != rawName) return std::nullopt;
  return EdfIdentity{e->group, e->tag, e->name, e->param, e->line, e->id};
}

}  // namespace

TauWriter::TauWriter(const fs::path& directory, const WriteOptions& options)
    : directory_(directory), options_(options) {}

void TauWriter::begin(const Definitions& defs) {
  defs_ = &defs;
  nanoseconds_ = defs.clock.resolution == 1000 * kMicrosPerSecond;
  threadMessages_.begin(defs);
  const auto& props = defs.info.properties;
  tauOrigin_ = props.count(kPropLayout) > 0;
  if (const auto it = props.find(kPropRecordFormat); it != props.end())
    format_ = RecordFormat::fromName(it->second).value_or(RecordFormat{});
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) throw IoError(directory_.string(), "cannot create directory: " + ec.message());
  threadDirectory_ = options_.merged ? directory_ / ".tau-merge-scratch" : directory_;
  fs::create_directories(threadDirectory_, ec);
  if (ec) throw IoError(threadDirectory_.string(), "cannot create directory: " + ec.message());
  ranks_.emplace(defs);
  placeLocations(defs);
  collectEntities(defs);
  numberComms(defs);
}

// TAU's node is the MPI rank: a process holding a world-rank location becomes that node,
// other processes the nodes after the last rank. Threads count within their process.
void TauWriter::placeLocations(const Definitions& defs) {
  const std::vector<LocationView> locations = defs.locations();
  if (tauOrigin_) {
    for (const LocationView& l : locations)
      streams_[l.id].place = {nodeOf(l.id), contextOf(l.id), threadOf(l.id)};
    return;
  }
  std::map<uint64_t, int64_t> rankOfGroup;
  int64_t maxRank = -1;
  for (const LocationView& l : locations) {
    const int64_t rank = ranks_->worldRank(l.id);
    if (rank < 0) continue;
    if (!rankOfGroup.count(l.group)) rankOfGroup[l.group] = rank;
    maxRank = std::max(maxRank, rank);
  }
  std::map<uint64_t, uint32_t> threadsInGroup;
  for (const LocationView& l : locations) {
    if (!rankOfGroup.count(l.group)) rankOfGroup[l.group] = ++maxRank;
    const uint32_t node = static_cast<uint32_t>(rankOfGroup[l.group]);
    streams_[l.id].place = {node, 0, threadsInGroup[l.group]++};
  }
}

void TauWriter::collectEntities(const Definitions& defs) {
  std::vector<uint64_t> members;
  for (const DefRecord& r : defs.records()) {
    const Ref self = r.fields.empty() ? kUndefinedRef : static_cast<Ref>(r.fields[0]);
    if (r.kind == DefKind::Region) {
      const std::string name(defs.string(r.fields[1]));
      const Paradigm paradigm = static_cast<Paradigm>(r.fields[5]);
      regions_[self] = identityFromLine(defs.string(r.fields[3]), defs.string(r.fields[2]))
                           .value_or(EdfIdentity{paradigm == Paradigm::Mpi ? "MPI" : "TAU_USER", 0,
                                                 name, "EntryExit", "", std::nullopt});
    } else if (r.kind == DefKind::MetricMember) {
      const std::string name(defs.string(r.fields[1]));
      members_[self] =
          identityFromLine(defs.string(r.fields[2]), name)
              .value_or(EdfIdentity{"TAUEVENT", 0, name, "TriggerValue", "", std::nullopt});
    } else if (defs.metricMembersOf(r, members)) {
      metrics_[self].members.assign(members.begin(), members.end());
    } else if (r.kind == DefKind::Attribute) {
      const std::string_view name = defs.string(r.fields[1]);
      if (name == kAttrTriggerSingle) attrSingle_ = self;
      if (name == kAttrValueDelay) attrValueDelay_ = self;
      if (name == kAttrEndDelay) attrEndDelay_ = self;
    }
  }
}

// TAU keeps a 6-bit communicator id: MPI_COMM_WORLD is 0, the others follow in
// definition order (a TAU trace read back defines them in exactly this order); the 64th
// and later share id 63 (a loss the messages on them report).
void TauWriter::numberComms(const Definitions& defs) {
  std::vector<Ref> comms;
  for (const DefRecord& r : defs.records()) {
    if (r.kind != DefKind::Comm) continue;
    const Ref self = static_cast<Ref>(r.fields[0]);
    if (defs.string(r.fields[1]) == "MPI_COMM_WORLD")
      comms.insert(comms.begin(), self);
    else
      comms.push_back(self);
  }
  for (size_t i = 0; i < comms.size(); ++i)
    tauCommOf_[comms[i]] = static_cast<uint32_t>(std::min<size_t>(i, kMaxComm + 1));
}

TauWriter::Stream* TauWriter::streamOf(LocationId location) {
  // Events come location after location: the last one found is most often the next.
  if (lastStream_ && lastStream_->out && location == lastLocation_) return lastStream_;
  const auto it = streams_.find(location);
  if (it == streams_.end()) return nullptr;
  Stream& s = it->second;
  lastLocation_ = location;
  lastStream_ = &s;  // unordered_map: the address stays valid
  if (!s.out) {
    const Place& p = s.place;
    // At most ~32 MB of buffered records in all, whatever the number of threads; up to
    // 1 MiB each, so that a few threads' files are opened and written rarely.
    const size_t flushBytes = std::clamp<size_t>((32u << 20) / streams_.size(), 4096, 1u << 20);
    s.out = std::make_unique<RecordAppender>(
        threadDirectory_ / threadFileName(p.node, p.context, p.thread), format_, flushBytes);
  }
  return &s;
}

EdfOut& TauWriter::edfOf(Stream& s) {
  if (!s.edf) s.edf = &edfOf(s.place.node);  // std::map: the address stays valid
  return *s.edf;
}

EdfOut& TauWriter::edfOf(uint32_t node) {
  const uint32_t key = options_.merged ? 0 : node;
  if (const auto it = edfs_.find(key); it != edfs_.end()) return it->second;
  const auto& props = defs_->info.properties;
  const std::string property = options_.merged ? kPropMergedEdf : nodeEdfProperty(node);
  std::optional<EdfTable> stored;
  if (const auto it = props.find(property); it != props.end())
    stored = parseEdf(it->second, "property " + property, false);
  return edfs_.emplace(key, EdfOut(std::move(stored))).first->second;
}

uint64_t TauWriter::anyMicros(Tick t) {
  const uint64_t resolution = defs_->clock.resolution;
  if (resolution == kMicrosPerSecond || resolution == 0) return t;
  if (resolution == 1000 * kMicrosPerSecond) {  // nanoseconds: a division by a constant
    const uint64_t rest = t % 1000;
    if (rest) ++roundedTimes_;
    return t / 1000 + (rest >= 500 ? 1 : 0);
  }
  if (resolution % kMicrosPerSecond == 0) {  // the rounding below in 64 bits (it is faster)
    const uint64_t ticks = resolution / kMicrosPerSecond, rest = t % ticks;
    if (rest) ++roundedTimes_;
    return t / ticks + (2 * rest >= ticks ? 1 : 0);
  }
  const unsigned __int128 scaled = static_cast<unsigned __int128>(t) * kMicrosPerSecond;
  if (scaled % resolution != 0) ++roundedTimes_;  // counted: a loss's text per event is slow
  return static_cast<uint64_t>((scaled + resolution / 2) / resolution);
}

// A thread file starts with EV_INIT and WALL_CLOCK; a trace that did not come from TAU
// gets them here (and FLUSH_CLOSE, WALL_CLOCK at the end).
void TauWriter::start(Stream& s, const Event& e, uint64_t time) {
  s.started = true;
  if (e.kind == EventKind::Generic && asSigned(e.fields[0]) == kEvInit) return;
  EdfOut& edf = edfOf(s);
  put(s, edf.idForTracer(kEvInit), kInitParameter, time);
  put(s, edf.idForTracer(kWallClock), static_cast<int64_t>(time / kMicrosPerSecond), time);
  s.synthesized = true;
}

LossReport TauWriter::losses() const {
  LossReport report = losses_;
  if (roundedTimes_) report["event times rounded to microseconds"] += roundedTimes_;
  if (nonBlocking_)
    report["non-blocking messages written as TAU messages (request ids dropped)"] += nonBlocking_;
  threadMessages_.report(
      report,
      "message events whose partner is another thread than its rank's first thread (TAU "
      "names the partner node only)",
      "message events matched out of their channel's order (TAU tools match in order)");
  return report;
}

void TauWriter::event(const Event& e) {
  if (isMpiPointToPoint(e.kind)) threadMessages_.event(e);  // it counts only those
  Stream* s = streamOf(e.location);
  if (!s) return lose("events of undefined locations");
  uint64_t time = micros(e.time);
  if (s->started && time < s->lastTime) {  // a thread file must never go back in time
    lose("events earlier than their location's previous event (time raised)");
    time = s->lastTime;
  }
  if (!s->started) start(*s, e, time);
  switch (e.kind) {
    case EventKind::Enter:
    case EventKind::Leave: {
      int64_t id = 0;
      if (!regionId(*s, static_cast<Ref>(e.fields[0]), id))
        return lose("Enter/Leave of undefined regions");
      return put(*s, id, e.kind == EventKind::Enter ? 1 : -1, time);
    }
    case EventKind::Metric:
      return writeMetric(*s, e, time);
    case EventKind::MpiSend:
    case EventKind::MpiIsend:
    case EventKind::MpiRecv:
    case EventKind::MpiIrecv:
      return writeMessage(*s, e, time);
    case EventKind::Generic:
      return writeGeneric(*s, e, time);
    default:
      return lose(std::string(nameOf(e.kind)) + " events (no TAU equivalent)");
  }
}

// regionId's first look-up of `region` in the stream (two hash look-ups), remembered for
// small refs.
bool TauWriter::firstRegionId(Stream& s, Ref region, int64_t& id) {
  constexpr Ref kCachedRefs = 1 << 16;
  const auto it = regions_.find(region);
  if (it == regions_.end()) return false;
  id = edfOf(s).idFor(kRegionKey | it->first, it->second);
  if (region < kCachedRefs) {
    if (region >= s.regionIds.size()) s.regionIds.resize(region + 1, kNoId);
    s.regionIds[region] = id;
  }
  return true;
}

uint64_t TauWriter::attribute(const Event& e, Ref attr) const {
  uint64_t value = 0;
  return attributeValue(e, attr, value) ? value : 0;
}

int64_t TauWriter::metricValue(uint8_t type, uint64_t bits) {
  if (type == kOtf2TypeInt64) return asSigned(bits);
  if (type == kOtf2TypeDouble) {
    const double v = asDouble(bits);
    const double rounded = std::nearbyint(v);
    if (rounded != v) lose("metric values rounded to integers (TAU stores int64)");
    if (!(std::fabs(rounded) < 9.2e18)) return 0;
    return static_cast<int64_t>(rounded);
  }
  if (type == kOtf2TypeUint64 && bits > static_cast<uint64_t>(INT64_MAX))
    lose("metric values above INT64_MAX (wrapped)");
  return static_cast<int64_t>(bits);
}

// One TriggerValue per member: the triplet 0, value, 0 TAU's runtime writes, with the
// timestamps the reader saw (or one record when the input held one).
void TauWriter::writeMetric(Stream& s, const Event& e, uint64_t time) {
  const auto it = metrics_.find(static_cast<Ref>(e.fields[0]));
  const uint64_t count = e.fields[1];
  if (it == metrics_.end() || it->second.members.size() < count)
    return lose("Metric events of undefined metrics");
  const bool single = attribute(e, attrSingle_) != 0;
  const uint64_t valueAt = time + attribute(e, attrValueDelay_);
  const uint64_t endAt = valueAt + attribute(e, attrEndDelay_);
  EdfOut& edf = edfOf(s);
  for (uint64_t i = 0; i < count; ++i) {
    const Ref member = static_cast<Ref>(it->second.members[i]);
    const auto identity = members_.find(member);
    if (identity == members_.end()) {
      lose("Metric values of undefined metric members");
      continue;
    }
    const int64_t id = edf.idFor(kMemberKey | member, identity->second);
    const int64_t value =
        metricValue(static_cast<uint8_t>(e.fields[2 + 2 * i]), e.fields[3 + 2 * i]);
    if (single) {
      put(s, id, value, time);
      continue;
    }
    put(s, id, 0, time);
    put(s, id, value, valueAt);
    put(s, id, 0, endAt);
  }
}

void TauWriter::writeMessage(Stream& s, const Event& e, uint64_t time) {
  const uint64_t rank = e.fields[0];
  const Ref comm = static_cast<Ref>(e.fields[1]);
  Message m;
  const Partner& p = partnerOf(s, comm, rank, e.location);
  m.partner = p.node;
  if (!p.placed) lose("messages whose partner rank has no location (rank kept)");
  m.comm = std::min<uint32_t>(p.tauComm, kMaxComm);
  if (!p.commKnown) lose("messages on undefined communicators (written on comm 0)");
  if (p.tauComm > kMaxComm)
    lose("messages on communicators beyond TAU's 64 ids (written on communicator 63)");
  m.tag = static_cast<uint32_t>(std::min<uint64_t>(e.fields[2], kMaxTag));
  m.length = static_cast<uint32_t>(std::min<uint64_t>(e.fields[3], kMaxLength));
  if (m.partner > kMaxPartner) lose("message partners above 65535 (truncated)");
  if (e.fields[2] > kMaxTag) lose("message tags above 65535 (clamped)");
  if (e.fields[3] > kMaxLength) lose("message lengths above 2^26-1 bytes (clamped)");
  if (e.kind == EventKind::MpiIsend || e.kind == EventKind::MpiIrecv) ++nonBlocking_;
  const bool send = isSend(e.kind);
  int64_t& id = s.messageIds[send ? 1 : 0];  // looked up once per stream (a hash look-up)
  if (id == kNoId) id = edfOf(s).idForTracer(send ? kMessageSend : kMessageRecv);
  put(s, id, packMessage(m), time);
}

// Looked up once per location, communicator and rank while they repeat.
const TauWriter::Partner& TauWriter::partnerOf(Stream& s, Ref comm, uint64_t rank,
                                               LocationId location) {
  Partner& p = s.partners[rank % s.partners.size()];
  if (p.comm == comm && p.rank == rank) return p;
  p = Partner{comm, rank};
  // TAU's partner is a world rank: the event's rank is one of its communicator.
  const auto placed = streams_.find(ranks_->locationOf(comm, rank, location));
  p.placed = placed != streams_.end();
  p.node = static_cast<uint32_t>(p.placed ? placed->second.place.node : rank);
  const auto c = tauCommOf_.find(comm);
  p.commKnown = c != tauCommOf_.end();
  p.tauComm = p.commKnown ? c->second : 0;
  return p;
}

void TauWriter::writeGeneric(Stream& s, const Event& e, uint64_t time) {
  const int64_t type = asSigned(e.fields[0]);
  const int64_t value = asSigned(e.fields[1]);
  EdfOut& edf = edfOf(s);
  if (tracerEventById(type)) return put(s, edf.idForTracer(type), value, time);
  if (edf.defines(type)) return put(s, type, value, time);
  lose("Generic events of other formats (no TAU event id)");
}

void TauWriter::writeEdfs() {
  std::set<uint32_t> nodes;
  for (const auto& [location, s] : streams_)
    if (s.out) nodes.insert(options_.merged ? 0 : s.place.node);
  for (uint32_t node : nodes) {
    const fs::path path =
        directory_ / (options_.merged ? std::string("tau.edf") : edfFileName(node));
    std::ofstream out(path, std::ios::binary);
    const std::string text = edfOf(node).text();
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) throw IoError(path.string(), "cannot write event definitions");
  }
}

void TauWriter::end() {
  std::vector<std::pair<std::tuple<uint32_t, uint32_t, uint32_t>, Stream*>> written;
  for (auto& [location, s] : streams_) {
    if (!s.out) continue;
    if (s.synthesized) {
      EdfOut& edf = edfOf(s);
      const uint64_t last = s.lastTime;
      put(s, edf.idForTracer(kFlushClose), 0, last);
      put(s, edf.idForTracer(kWallClock), static_cast<int64_t>(last / kMicrosPerSecond), last);
    }
    s.out->flush();
    written.push_back({{s.place.node, s.place.context, s.place.thread}, &s});
  }
  writeEdfs();
  if (!options_.merged) return;
  std::sort(written.begin(), written.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<fs::path> inputs;
  for (const auto& w : written) inputs.push_back(w.second->out->path());
  mergeThreadFiles(inputs, format_, directory_ / "tau.trc");
  std::error_code ec;
  fs::remove_all(threadDirectory_, ec);
}

}  // namespace mtf::tau
