#include "filter/time_window.hpp"

#include <algorithm>

namespace mtf::filter {

// The output's clock spans the window, within the input's span where its definitions
// give it (an open side of the window is 0 or the largest tick).
void TimeWindowRule::begin(const Definitions& defs, ClockProperties& outputClock) {
  const ClockProperties& in = defs.clock;
  const bool spanKnown = in.traceLength > 0;
  const Tick from = spanKnown ? std::max(window_.from, in.globalOffset) : window_.from;
  Tick to = window_.to;
  if (spanKnown) to = std::min(to, in.globalOffset + in.traceLength);
  outputClock.globalOffset = window_.shift ? from - window_.from : from;
  outputClock.traceLength = to > from && (spanKnown || to != ~Tick{0}) ? to - from : 0;
}

CutRule::Side TimeWindowRule::sideOf(const Event& e, uint64_t) {
  if (e.time >= window_.to) return Side::After;
  return e.time >= window_.from ? Side::Inside : Side::Before;
}

struct CutSink::LocationState {
  std::vector<uint64_t> stack;  // regions entered and not left, outermost first
  uint64_t seen = 0;            // events of the location so far
  std::optional<Tick> firstKept, lastKept;
  bool opened = false;          // the calls open at the start were entered again
  bool closed = false;          // the calls open at the end were left
  bool collectiveOpen = false;  // a MpiCollectiveBegin without its End yet
};

CutSink::CutSink(TraceSink& out, std::unique_ptr<CutRule> rule)
    : out_(out), rule_(std::move(rule)) {}
CutSink::~CutSink() = default;

void CutSink::begin(const Definitions& defs) {
  ranks_ = std::make_unique<RankMap>(defs);
  defs_ = defs;  // writers keep a reference to the definitions until their end()
  rule_->begin(defs, defs_.clock);
  out_.begin(defs_);
}

CutSink::LocationState& CutSink::stateOf(LocationId id) {
  auto& slot = locations_[id];
  if (!slot) slot = std::make_unique<LocationState>();
  return *slot;
}

void CutSink::write(const Event& e) {
  const Tick shift = rule_->shift();
  if (shift == 0) {
    out_.event(e);
  } else {
    scratch_ = e;
    scratch_.time -= shift;
    // Fields that are times: a flush's stop, a Paraver state's end.
    if (e.kind == EventKind::BufferFlush || e.kind == EventKind::State)
      scratch_.fields[0] = std::max(e.fields[0], shift) - shift;
    out_.event(scratch_);
  }
  ++written_;
}

void CutSink::synthetic(EventKind kind, LocationId loc, Tick t, uint64_t region) {
  Event e;
  if (kind == EventKind::MpiCollectiveBegin)
    e.set(kind, loc, t, {});
  else
    e.set(kind, loc, t, {region});
  write(e);
}

void CutSink::openAtStart(LocationId id, LocationState& s) {
  s.opened = true;
  const std::optional<Tick> at = rule_->startOf(id, s.firstKept);
  if (!at) return;
  for (uint64_t region : s.stack) synthetic(EventKind::Enter, id, *at, region);
  if (s.collectiveOpen) synthetic(EventKind::MpiCollectiveBegin, id, *at, 0);
}

void CutSink::closeAtEnd(LocationId id, LocationState& s) {
  s.closed = true;
  if (!s.opened) openAtStart(id, s);  // a location with nothing inside the cut
  const std::optional<Tick> at = rule_->endOf(id, s.lastKept);
  if (!at) return;
  if (s.collectiveOpen) ++collectivesCut_;  // its End lies after the cut
  for (auto it = s.stack.rbegin(); it != s.stack.rend(); ++it)
    synthetic(EventKind::Leave, id, *at, *it);
}

void CutSink::track(LocationState& s, const Event& e) {
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
void CutSink::countMessage(const Event& e, bool inside, uint64_t count) {
  const int64_t self = ranks_->worldRank(e.location);
  const int64_t peer = ranks_->worldRankOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
  const bool send = isSend(e.kind);
  Channel& c = channels_[{send ? self : peer, send ? peer : self, e.fields[1], e.fields[2]}];
  uint64_t& counter =
      send ? (inside ? c.sendsIn : c.sendsBefore) : (inside ? c.recvsIn : c.recvsBefore);
  counter += count;
}

void CutSink::messagesBefore(const Event& message, uint64_t count) {
  if (isMpiPointToPoint(message.kind)) countMessage(message, false, count);
}

void CutSink::event(const Event& e) {
  LocationState& s = stateOf(e.location);
  const uint64_t position = positions_ ? positions_->current() : s.seen;
  ++s.seen;
  const CutRule::Side side = rule_->sideOf(e, position);
  if (side == CutRule::Side::After) {
    if (!s.closed) closeAtEnd(e.location, s);
    return;
  }
  const bool inside = side == CutRule::Side::Inside;
  if (isMpiPointToPoint(e.kind)) countMessage(e, inside);
  if (inside) {
    if (!s.firstKept) s.firstKept = e.time;
    if (!s.opened) openAtStart(e.location, s);
    s.lastKept = e.time;
    write(e);
  }
  track(s, e);
}

void CutSink::end() {
  for (auto& [id, s] : locations_)
    if (!s->closed) closeAtEnd(id, *s);
  out_.end();
}

uint64_t CutSink::messagesCut() const {
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

LossReport CutSink::losses() const {
  LossReport l = out_.losses();
  if (const uint64_t cut = messagesCut()) l["messages whose partner lies outside the cut"] += cut;
  if (collectivesCut_) l["collective operations still open at the cut's end"] += collectivesCut_;
  return l;
}

}  // namespace mtf::filter
