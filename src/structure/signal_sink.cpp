// SignalSink: one pass over the events, every signal at once.
#include <algorithm>
#include <array>

#include "structure/signal.hpp"
#include "util/error.hpp"

namespace mtf::structure {

namespace {

constexpr size_t kMaxSignals = 32;
constexpr uint64_t kExtraeFlushType = 40000003;  // Extrae's "flushing traces" event (1 / 0)
constexpr std::string_view kExtraeFlushRegion = "paraver 40000003 ";  // its region's description
// OTF2_Type values of a metric's value.
constexpr uint8_t kTypeInt64 = 8, kTypeDouble = 10;

bool nameIsOneOf(std::string_view name, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (name.starts_with(p)) return true;
  return false;
}

// MPI calls by role, or by name when the reader could not tell the role.
bool isPointToPointCall(const RegionView& r) {
  if (r.role == RegionRole::PointToPoint) return true;
  return r.role == RegionRole::Unknown || r.role == RegionRole::Function
             ? nameIsOneOf(r.name, {"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Wait",
                                    "MPI_Test", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Ib",
                                    "MPI_Is", "MPI_Ir", "MPI_Sendrecv", "MPI_Probe", "MPI_Iprobe"})
             : false;
}
bool isCollectiveCall(const RegionView& r) {
  switch (r.role) {
    case RegionRole::Barrier:
    case RegionRole::CollOne2All:
    case RegionRole::CollAll2One:
    case RegionRole::CollAll2All:
    case RegionRole::CollOther:
      return true;
    default:
      break;
  }
  return r.role == RegionRole::Unknown &&
         nameIsOneOf(r.name, {"MPI_Barrier", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce",
                              "MPI_Gather", "MPI_Allgather", "MPI_Scatter", "MPI_Alltoall",
                              "MPI_Scan", "MPI_Exscan", "MPI_Reduce_scatter"});
}
bool isMpiCall(const RegionView& r) {
  return r.paradigm == Paradigm::Mpi || r.name.starts_with("MPI_");
}

bool regionCounts(const SignalSpec& spec, const RegionView& r) {
  switch (spec.kind) {
    case SignalKind::PointToPoint:
      return isPointToPointCall(r);
    case SignalKind::Collective:
      return isCollectiveCall(r);
    case SignalKind::Mpi:
      return isMpiCall(r);
    case SignalKind::Region:
      return r.name == spec.name;
    default:
      return false;
  }
}

double metricValue(uint8_t type, uint64_t bits) {
  if (type == kTypeDouble) return asDouble(bits);
  if (type == kTypeInt64) return static_cast<double>(asSigned(bits));
  return static_cast<double>(bits);
}

}  // namespace

struct SignalSink::LocationState {
  std::array<uint32_t, kMaxSignals> depth{};
  std::array<Tick, kMaxSignals> since{};
  std::vector<double> metric;  // per signal: the metric's last value (metric signals only)
  std::vector<Tick> metricSince;
  Tick last = 0;
};

SignalSink::SignalSink(std::vector<SignalSpec> specs, const TimeGrid& grid)
    : specs_(std::move(specs)), grid_(grid) {
  if (specs_.empty() || specs_.size() > kMaxSignals)
    throw UsageError("between 1 and 32 signals at once");
  sums_.assign(specs_.size(), BinAccumulator(grid_));
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].kind == SignalKind::Flush) flushMask_ |= 1u << i;
    if (specs_[i].kind == SignalKind::Events) eventsMask_ |= 1u << i;
  }
}

SignalSink::~SignalSink() = default;

// Which signals each region counts in; and where each named metric's value sits.
void SignalSink::begin(const Definitions& defs) {
  defs_ = defs;
  for (const DefRecord& r : defs_.records()) {
    if (r.kind != DefKind::Region) continue;
    const auto ref = static_cast<Ref>(r.fields[0]);
    const RegionView view = defs_.region(ref);
    uint32_t mask = 0;
    const std::string_view canonical = defs_.string(r.fields[2]);
    for (size_t i = 0; i < specs_.size(); ++i) {
      // region:NAME matches the region's name or its canonical name ("main" for Score-P's
      // "int main(int, char**)").
      const bool named = specs_[i].kind == SignalKind::Region && canonical == specs_[i].name;
      if (named || regionCounts(specs_[i], view)) mask |= 1u << i;
    }
    // Extrae's flushing interval, read from Paraver as a region (see onGeneric).
    if (defs_.string(r.fields[3]).starts_with(kExtraeFlushRegion)) mask |= flushMask_;
    if (mask == 0) continue;
    if (ref >= (1u << 24))
      throw InputError("", "region " + std::to_string(ref), "region id too large");
    if (maskByRegion_.size() <= ref) maskByRegion_.resize(ref + 1, 0);
    maskByRegion_[ref] |= mask;
  }
  for (size_t i = 0; i < specs_.size(); ++i) {
    if (specs_[i].kind != SignalKind::Metric) continue;
    for (const DefRecord& cls : defs_.records()) {
      if (cls.kind != DefKind::MetricClass) continue;
      for (size_t m = 4; m < cls.fields.size(); ++m) {
        const DefRecord* member = defs_.find(DefKind::MetricMember, cls.fields[m]);
        if (!member || defs_.string(member->fields[1]) != specs_[i].name) continue;
        const MetricSlot slot{i, static_cast<uint8_t>(m - 4)};
        metricSlots_[cls.fields[0]] = slot;
        for (const DefRecord& inst : defs_.records())
          if (inst.kind == DefKind::MetricInstance && inst.fields[1] == cls.fields[0])
            metricSlots_[inst.fields[0]] = slot;
      }
    }
  }
  checkNamesExist();
}

// A region or metric the trace does not define would give a signal of zeros: refused.
void SignalSink::checkNamesExist() const {
  for (size_t i = 0; i < specs_.size(); ++i) {
    const SignalSpec& spec = specs_[i];
    bool found = spec.kind != SignalKind::Region && spec.kind != SignalKind::Metric;
    for (uint32_t mask : maskByRegion_) found = found || (mask & (1u << i));
    for (const auto& [ref, slot] : metricSlots_) found = found || slot.signal == i;
    if (!found)
      throw UsageError(signalName(spec) + ": the trace defines no " +
                       (spec.kind == SignalKind::Region ? "region" : "metric") + " called '" +
                       spec.name + "'");
  }
}

uint32_t SignalSink::regionMask(Ref region) const {
  return region < maskByRegion_.size() ? maskByRegion_[region] : 0;
}

SignalSink::LocationState& SignalSink::stateOf(LocationId id) {
  if (last_ && lastId_ == id) return *last_;
  auto& slot = locations_[id];
  if (!slot) {
    slot = std::make_unique<LocationState>();
    slot->metric.assign(specs_.size(), 0.0);
    slot->metricSince.assign(specs_.size(), 0);
  }
  last_ = slot.get();
  lastId_ = id;
  return *slot;
}

void SignalSink::beginInterval(LocationState& s, uint32_t mask, Tick t) {
  for (; mask; mask &= mask - 1) {
    const int i = __builtin_ctz(mask);
    if (s.depth[i]++ == 0) s.since[i] = t;
  }
}

void SignalSink::endInterval(LocationState& s, uint32_t mask, Tick t) {
  for (; mask; mask &= mask - 1) {
    const int i = __builtin_ctz(mask);
    if (s.depth[i] == 0) continue;  // a Leave without its Enter
    if (--s.depth[i] == 0) sums_[i].addInterval(s.since[i], t, 1.0);
  }
}

void SignalSink::onMetric(LocationState& s, const Event& e) {
  const auto it = metricSlots_.find(e.fields[0]);
  if (it == metricSlots_.end()) return;
  const MetricSlot slot = it->second;
  const size_t at = 2 + 2 * size_t{slot.member};
  if (at + 1 >= e.fields.size()) return;
  // The value holds from this event until the location's next value of the metric.
  sums_[slot.signal].addInterval(s.metricSince[slot.signal], e.time, s.metric[slot.signal]);
  s.metric[slot.signal] = metricValue(static_cast<uint8_t>(e.fields[at]), e.fields[at + 1]);
  s.metricSince[slot.signal] = e.time;
}

void SignalSink::onGeneric(LocationState& s, const Event& e) {
  if (e.fields[0] != kExtraeFlushType || flushMask_ == 0) return;
  if (e.fields[1] != 0)
    beginInterval(s, flushMask_, e.time);
  else
    endInterval(s, flushMask_, e.time);
}

void SignalSink::event(const Event& e) {
  ++events_;
  if (e.time < grid_.start || e.time >= grid_.end()) ++outside_;
  LocationState& s = stateOf(e.location);
  s.last = e.time;
  if (eventsMask_)
    for (uint32_t m = eventsMask_; m; m &= m - 1) sums_[__builtin_ctz(m)].addCount(e.time);
  switch (e.kind) {
    case EventKind::Enter:
      if (const uint32_t mask = regionMask(static_cast<Ref>(e.fields[0])))
        beginInterval(s, mask, e.time);
      break;
    case EventKind::Leave:
      if (const uint32_t mask = regionMask(static_cast<Ref>(e.fields[0])))
        endInterval(s, mask, e.time);
      break;
    case EventKind::BufferFlush:
      for (uint32_t m = flushMask_; m; m &= m - 1)
        sums_[__builtin_ctz(m)].addInterval(e.time, e.fields[0], 1.0);
      break;
    case EventKind::Metric:
      if (!metricSlots_.empty()) onMetric(s, e);
      break;
    case EventKind::Generic:
      onGeneric(s, e);
      break;
    default:
      break;
  }
}

// Calls still open and metric values still held end at their location's last event.
void SignalSink::end() {
  for (auto& [id, s] : locations_) {
    for (size_t i = 0; i < specs_.size(); ++i) {
      if (s->depth[i] > 0) sums_[i].addInterval(s->since[i], s->last, 1.0);
      if (specs_[i].kind == SignalKind::Metric)
        sums_[i].addInterval(s->metricSince[i], s->last, s->metric[i]);
    }
  }
}

std::vector<Signal> SignalSink::signals() const {
  std::vector<Signal> out;
  for (size_t i = 0; i < specs_.size(); ++i) out.push_back({specs_[i], grid_, sums_[i].means()});
  return out;
}

}  // namespace mtf::structure

namespace mtf::structure {

SignalRun readSignals(const SourceOpener& open, const std::vector<SignalSpec>& specs, size_t bins,
                      TraceSink* alsoFeed) {
  std::unique_ptr<TraceSource> source = open();
  Tick first = 0, last = 0;
  if (!declaredSpan(source->definitions(), first, last)) {
    SpanSink span;
    source->read(span);
    if (!span.empty()) {
      first = span.first();
      last = span.last();
    }
    source = open();
  }
  SignalSink sink(specs, TimeGrid::covering(first, last, bins));
  if (alsoFeed) {
    TeeSink both({&sink, alsoFeed});
    source->read(both);
  } else {
    source->read(sink);
  }
  return {sink.definitions(), sink.signals(), sink.activeLocations(), sink.eventCount(),
          sink.outsideGrid()};
}

}  // namespace mtf::structure
