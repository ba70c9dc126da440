// Signals of a trace (the structure paper's section 2.2): for every bin of a time grid of
// integer ticks, the mean number of processes in MPI point-to-point calls, in collectives,
// in any MPI call, flushing their trace buffer, or in a named region; a metric's value; or
// the number of events. All signals of a SignalSink come from one pass over the events,
// and memory grows with the number of bins and locations, never with the events.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf::structure {

enum class SignalKind : uint8_t { PointToPoint, Collective, Mpi, Flush, Region, Metric, Events };

struct SignalSpec {
  SignalKind kind = SignalKind::PointToPoint;
  std::string name;  // the region or metric of Region and Metric
};

// "p2p", "collective", "mpi", "flush", "events", "region:NAME" or "metric:NAME";
// throws UsageError otherwise.
SignalSpec parseSignalSpec(std::string_view text);
std::string signalName(const SignalSpec& spec);
// The text --what accepts, for help messages.
extern const char* const kSignalKindsHelp;

// Bins of `width` ticks from `start`; the last bin may run past the trace's end.
struct TimeGrid {
  Tick start = 0;
  Tick width = 1;
  size_t bins = 1;

  // At most `maxBins` bins of whole ticks covering [first, last].
  static TimeGrid covering(Tick first, Tick last, size_t maxBins);
  // The bin holding `t`; times outside the grid go to its first or last bin.
  size_t binOf(Tick t) const {
    if (t <= start) return 0;
    const Tick b = (t - start) / width;
    return b < bins ? static_cast<size_t>(b) : bins - 1;
  }
  Tick binStart(size_t b) const { return start + b * width; }
  Tick end() const { return start + bins * width; }
};

// The span the definitions declare (clock offset and length), or false when they declare
// none (then SpanSink finds it with a first pass).
bool declaredSpan(const Definitions& defs, Tick& first, Tick& last);

// Finds the first and last event time (the first pass when the definitions hold no span).
class SpanSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event& e) override {
    if (e.time < first_) first_ = e.time;
    if (e.time > last_) last_ = e.time;
  }
  void end() override {}
  bool empty() const { return first_ > last_; }
  Tick first() const { return first_; }
  Tick last() const { return last_; }

 private:
  Tick first_ = ~Tick{0};
  Tick last_ = 0;
};

// One sampled signal: samples[b] is the signal's mean over bin b (a derived value).
struct Signal {
  SignalSpec spec;
  TimeGrid grid;
  std::vector<double> samples;
};

// Time-weighted sums over a grid: an interval of constant weight costs O(1) however many
// bins it covers (partial bins directly, whole bins through a difference array).
class BinAccumulator {
 public:
  explicit BinAccumulator(const TimeGrid& grid)
      : grid_(grid), partial_(grid.bins, 0.0), whole_(grid.bins + 1, 0.0) {}
  void addInterval(Tick from, Tick to, double weight);
  void addCount(Tick at) { partial_[grid_.binOf(at)] += static_cast<double>(grid_.width); }
  // The mean weight of each bin.
  std::vector<double> means() const;

 private:
  TimeGrid grid_;
  std::vector<double> partial_;
  std::vector<double> whole_;
};

class SignalSink : public TraceSink {
 public:
  // The grid is fixed before any event: memory is the bins times the signals.
  SignalSink(std::vector<SignalSpec> specs, const TimeGrid& grid);
  ~SignalSink() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;

  // After end(): one signal per spec, in the order given.
  std::vector<Signal> signals() const;
  const Definitions& definitions() const { return defs_; }
  // Locations that had at least one event (the processes a signal can count).
  size_t activeLocations() const { return locations_.size(); }
  uint64_t eventCount() const { return events_; }
  // Events whose time lies outside the grid (counted in its first or last bin).
  uint64_t outsideGrid() const { return outside_; }

 private:
  struct LocationState;
  struct MetricSlot {
    size_t signal;
    uint8_t member;
  };
  void beginInterval(LocationState& s, uint32_t mask, Tick t);
  void endInterval(LocationState& s, uint32_t mask, Tick t);
  void onMetric(LocationState& s, const Event& e);
  void onGeneric(LocationState& s, const Event& e);
  LocationState& stateOf(LocationId id);
  uint32_t regionMask(Ref region) const;
  void checkNamesExist() const;

  std::vector<SignalSpec> specs_;
  TimeGrid grid_;
  Definitions defs_;
  std::vector<BinAccumulator> sums_;
  std::vector<uint32_t> maskByRegion_;  // which signals a region's calls count in
  std::unordered_map<uint64_t, MetricSlot> metricSlots_;
  uint32_t flushMask_ = 0, eventsMask_ = 0;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> locations_;
  LocationState* last_ = nullptr;
  LocationId lastId_ = 0;
  uint64_t events_ = 0, outside_ = 0;
};

}  // namespace mtf::structure

namespace mtf::structure {

// What one pass of a SignalSink gives.
struct SignalRun {
  Definitions defs;
  std::vector<Signal> signals;
  size_t locations = 0;  // locations with events
  uint64_t events = 0;
  uint64_t outsideGrid = 0;  // events outside the declared span (put in the edge bins)
};

// Opens the trace afresh (a source is read once).
using SourceOpener = std::function<std::unique_ptr<TraceSource>()>;

// The signals on a grid of at most `bins` bins over the trace's span: the span the
// definitions declare, else a first pass that only finds the first and last time.
SignalRun readSignals(const SourceOpener& open, const std::vector<SignalSpec>& specs, size_t bins,
                      TraceSink* alsoFeed = nullptr);

}  // namespace mtf::structure
