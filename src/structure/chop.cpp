#include "structure/chop.hpp"

#include <algorithm>

#include "structure/structure.hpp"
#include "util/error.hpp"

namespace mtf::structure {

ChopWindow chopWindow(const std::vector<StructureRegion>& regions, Tick traceStart, unsigned zone,
                      uint64_t iterations, bool withInit, bool shift) {
  std::vector<const StructureRegion*> zones;
  for (const auto& r : regions)
    if (r.kind == RegionKind::Periodic) zones.push_back(&r);
  if (zones.empty()) throw NoPeriodicZone{};
  if (zone < 1 || zone > zones.size())
    throw UsageError("--zone " + std::to_string(zone) + ": the trace has " +
                     std::to_string(zones.size()) + " periodic zone(s)");
  const StructureRegion& z = *zones[zone - 1];
  if (iterations < 1 || iterations > z.iterations)
    throw UsageError("--iterations must be 1 to " + std::to_string(z.iterations) + " (zone " +
                     std::to_string(zone) + ")");
  ChopWindow w;
  w.shift = shift;
  const Tick length = iterations * z.period;
  if (withInit) {
    w.from = traceStart;
    w.to = std::min(z.end, z.start + length);
  } else {
    w.from = std::max(z.start, std::min(z.sampleStart, z.end > length ? z.end - length : z.start));
    w.to = std::min(z.end, w.from + length);
  }
  return w;
}

struct ChopSink::LocationState {
  std::vector<uint64_t> stack;  // regions entered and not left, outermost first
  bool opened = false;          // the calls open at `from` were entered again
  bool closed = false;          // the calls open at `to` were left
  bool collectiveOpen = false;  // a MpiCollectiveBegin without its End yet
};

ChopSink::ChopSink(TraceSink& out, const ChopWindow& window) : out_(out), window_(window) {}
ChopSink::~ChopSink() = default;

void ChopSink::begin(const Definitions& defs) {
  ranks_ = std::make_unique<RankMap>(defs);
  defs_ = defs;  // writers keep a reference to the definitions until their end()
  defs_.clock.globalOffset = window_.shift ? 0 : window_.from;
  defs_.clock.traceLength = window_.to - window_.from;
  out_.begin(defs_);
}

ChopSink::LocationState& ChopSink::stateOf(LocationId id) {
  auto& slot = locations_[id];
  if (!slot) slot = std::make_unique<LocationState>();
  return *slot;
}

void ChopSink::write(const Event& e) {
  if (!window_.shift) {
    out_.event(e);
  } else {
    scratch_ = e;
    scratch_.time -= window_.from;
    // Fields that are times: a flush's stop, a Paraver state's end.
    if (e.kind == EventKind::BufferFlush || e.kind == EventKind::State)
      scratch_.fields[0] = std::max(e.fields[0], window_.from) - window_.from;
    out_.event(scratch_);
  }
  ++written_;
}

void ChopSink::synthetic(EventKind kind, LocationId loc, Tick t, uint64_t region) {
  Event e;
  if (kind == EventKind::MpiCollectiveBegin)
    e.set(kind, loc, t, {});
  else
    e.set(kind, loc, t, {region});
  write(e);
}

void ChopSink::openAtStart(LocationId id, LocationState& s) {
  s.opened = true;
  for (uint64_t region : s.stack) synthetic(EventKind::Enter, id, window_.from, region);
  if (s.collectiveOpen) synthetic(EventKind::MpiCollectiveBegin, id, window_.from, 0);
}

void ChopSink::closeAtEnd(LocationId id, LocationState& s) {
  s.closed = true;
  if (s.collectiveOpen) ++collectivesCut_;  // its End lies after the chop
  for (auto it = s.stack.rbegin(); it != s.stack.rend(); ++it)
    synthetic(EventKind::Leave, id, window_.to, *it);
}

void ChopSink::track(LocationState& s, const Event& e) {
  switch (e.kind) {
    case EventKind::Enter:
      s.stack.push_back(e.fields[0]);
      break;
    case EventKind::Leave:
      if (!s.stack.empty()) s.stack.pop_back();
      break;
    case EventKind::MpiCollectiveBegin:
      s.collectiveOpen = true;
      break;
    case EventKind::MpiCollectiveEnd:
      s.collectiveOpen = false;
      break;
    default:
      break;
  }
}

// The k-th send of a channel matches its k-th receive.
void ChopSink::countMessage(const Event& e, bool inside) {
  const int64_t self = ranks_->worldRank(e.location);
  const int64_t peer = ranks_->worldRankOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
  const bool send = isSend(e.kind);
  Channel& c = channels_[{send ? self : peer, send ? peer : self, e.fields[1], e.fields[2]}];
  uint64_t& counter =
      send ? (inside ? c.sendsIn : c.sendsBefore) : (inside ? c.recvsIn : c.recvsBefore);
  ++counter;
}

void ChopSink::event(const Event& e) {
  LocationState& s = stateOf(e.location);
  if (e.time >= window_.to) {
    if (!s.opened) openAtStart(e.location, s);  // a location with nothing inside the chop
    if (!s.closed) closeAtEnd(e.location, s);
    return;
  }
  const bool inside = e.time >= window_.from;
  if (isMpiPointToPoint(e.kind)) countMessage(e, inside);
  if (inside) {
    if (!s.opened) openAtStart(e.location, s);
    write(e);
  }
  track(s, e);
}

void ChopSink::end() {
  for (auto& [id, s] : locations_) {
    if (!s->opened) openAtStart(id, *s);
    if (!s->closed) closeAtEnd(id, *s);
  }
  out_.end();
}

uint64_t ChopSink::messagesCut() const {
  uint64_t cut = 0;
  for (const auto& [key, c] : channels_) {
    // Sends [sb, sb + si) and receives [rb, rb + ri) by index: the overlap is matched.
    const uint64_t lo = std::max(c.sendsBefore, c.recvsBefore);
    const uint64_t hi = std::min(c.sendsBefore + c.sendsIn, c.recvsBefore + c.recvsIn);
    const uint64_t matched = hi > lo ? hi - lo : 0;
    cut += c.sendsIn + c.recvsIn - 2 * matched;
  }
  return cut;
}

LossReport ChopSink::losses() const {
  LossReport l = out_.losses();
  if (const uint64_t cut = messagesCut()) l["messages whose partner lies outside the chop"] += cut;
  if (collectivesCut_) l["collective operations still open at the chop's end"] += collectivesCut_;
  return l;
}

}  // namespace mtf::structure
