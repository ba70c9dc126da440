// Cutting a trace while it streams: a CutSink passes on the events a CutRule keeps, as a
// trace of their own. Calls open at the cut are closed properly: each location's calls
// open at the cut's start are entered again there, and those still open at its end are
// left there, so every Enter has its Leave. Messages whose partner lies outside the cut
// are counted (matched per sender, receiver, communicator and tag in order, as MPI
// matches them). Streams: memory grows with the locations, their call depth and their
// message channels.
//
// The rules: a time window [from, to) (`mtf convert --begin/--end`, `mtf chop`), here;
// iterations of a loop of the program model, by position (iteration_cut.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "compaction/cut_prefix.hpp"
#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::filter {

// Where each event of a location falls, and when the calls open at the cut are entered
// again and left.
class CutRule {
 public:
  enum class Side : uint8_t { Before, Inside, After };
  virtual ~CutRule() = default;
  // Called once with the input's definitions; may change the output's clock.
  virtual void begin(const Definitions& defs, ClockProperties& outputClock) = 0;
  // `index`: the event's place in its location's stream, from 0.
  virtual Side sideOf(const Event& e, uint64_t index) = 0;
  // When the calls open at the start are entered again on `location`, whose first kept
  // event is at `firstKept` (none: it keeps nothing); none: they are not.
  virtual std::optional<Tick> startOf(LocationId location, std::optional<Tick> firstKept) = 0;
  // When the calls open at the end are left, the last kept event being at `lastKept`.
  virtual std::optional<Tick> endOf(LocationId location, std::optional<Tick> lastKept) = 0;
  // Subtracted from every time written (0: times are kept).
  virtual Tick shift() const { return 0; }
};

struct TimeWindow {
  Tick from = 0, to = 0;  // [from, to)
  bool shift = false;     // times become time - from (Paraver's cutter's default)
};

// The events of [from, to): every location's calls open at `from` are entered again at
// `from`, those open at `to` left at `to`; the output's clock spans the window.
class TimeWindowRule : public CutRule {
 public:
  explicit TimeWindowRule(const TimeWindow& window) : window_(window) {}
  void begin(const Definitions& defs, ClockProperties& outputClock) override;
  Side sideOf(const Event& e, uint64_t index) override;
  std::optional<Tick> startOf(LocationId, std::optional<Tick>) override { return window_.from; }
  std::optional<Tick> endOf(LocationId, std::optional<Tick>) override { return window_.to; }
  Tick shift() const override { return window_.shift ? window_.from : 0; }

 private:
  TimeWindow window_;
};

// Counts each location's events on their way into a filter that drops some (a
// selection) in front of a CutSink: a cut by position (iterations) then goes by an
// event's place in its location's input stream, not in what the filter passes on.
class StreamPositions : public TraceSink {
 public:
  explicit StreamPositions(TraceSink& out) : out_(out) {}
  void begin(const Definitions& defs) override { out_.begin(defs); }
  void event(const Event& e) override {
    current_ = next_[e.location]++;
    out_.event(e);
  }
  void end() override { out_.end(); }
  LossReport losses() const override { return out_.losses(); }
  uint64_t current() const { return current_; }  // the position of the event in flight

 private:
  TraceSink& out_;
  std::unordered_map<LocationId, uint64_t> next_;
  uint64_t current_ = 0;
};

// Also a PrefixSink: an .mtf source restricted to a window tells it the messages before
// the window as counts (compaction/cut_prefix.hpp).
class CutSink : public TraceSink, public compaction::PrefixSink {
 public:
  CutSink(TraceSink& out, std::unique_ptr<CutRule> rule);
  ~CutSink() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  LossReport losses() const override;
  void messagesBefore(const Event& message, uint64_t count) override;
  // Positions from `positions` (upstream of a filter feeding this sink), not from the
  // events this sink sees.
  void countPositionsBy(const StreamPositions& positions) { positions_ = &positions; }

  uint64_t eventsWritten() const { return written_; }
  // Messages in the cut whose other end (send or receive) is outside it.
  uint64_t messagesCut() const;

 private:
  struct LocationState;
  struct Channel {
    uint64_t sendsBefore = 0, sendsIn = 0, recvsBefore = 0, recvsIn = 0;
  };
  using ChannelKey = std::tuple<int64_t, int64_t, uint64_t, uint64_t>;  // from, to, comm, tag
  LocationState& stateOf(LocationId id);
  void openAtStart(LocationId id, LocationState& s);
  void closeAtEnd(LocationId id, LocationState& s);
  void track(LocationState& s, const Event& e);
  void countMessage(const Event& e, bool inside, uint64_t count = 1);
  void write(const Event& e);
  void synthetic(EventKind kind, LocationId loc, Tick t, uint64_t region);

  TraceSink& out_;
  std::unique_ptr<CutRule> rule_;
  Definitions defs_;
  std::unique_ptr<RankMap> ranks_;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> locations_;
  std::map<ChannelKey, Channel> channels_;
  const StreamPositions* positions_ = nullptr;
  uint64_t written_ = 0, collectivesCut_ = 0;
  Event scratch_;
};

// A cut by a time window.
inline std::unique_ptr<CutSink> timeWindowCut(TraceSink& out, const TimeWindow& window) {
  return std::make_unique<CutSink>(out, std::make_unique<TimeWindowRule>(window));
}

}  // namespace mtf::filter
