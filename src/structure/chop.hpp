// A chop: the events of [from, to) of a trace, passed on to another sink (a writer) as a
// trace of its own. Calls open at the cut are closed properly: each location's calls open
// at `from` are entered again at `from`, and those still open at `to` are left at `to`, so
// every Enter has its Leave. Messages whose partner lies outside the chop are counted
// (matched per sender, receiver, communicator and tag in order, as MPI matches them).
// Streams: memory grows with the locations, their call depth and their message channels.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::structure {

struct ChopWindow {
  Tick from = 0, to = 0;  // [from, to)
  bool shift = false;     // times become time - from (Paraver's cutter's default)
};

struct StructureRegion;
struct NoPeriodicZone {};

// The window of K iterations of level-1 periodic zone `zone` (from 1): K periods from the
// zone's middle iteration (the one its inner level was searched in), moved back if the
// zone ends sooner; with `withInit`, from the trace's start `traceStart` to the end of
// the zone's first K iterations. Throws NoPeriodicZone if there is none, UsageError if
// `zone` or `iterations` is out of range.
ChopWindow chopWindow(const std::vector<StructureRegion>& regions, Tick traceStart, unsigned zone,
                      uint64_t iterations, bool withInit, bool shift);

class ChopSink : public TraceSink {
 public:
  ChopSink(TraceSink& out, const ChopWindow& window);
  ~ChopSink() override;
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;
  LossReport losses() const override;

  uint64_t eventsWritten() const { return written_; }
  // Messages in the chop whose other end (send or receive) is outside it.
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
  void countMessage(const Event& e, bool inside);
  void write(const Event& e);
  void synthetic(EventKind kind, LocationId loc, Tick t, uint64_t region);

  TraceSink& out_;
  ChopWindow window_;
  Definitions defs_;
  std::unique_ptr<RankMap> ranks_;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> locations_;
  std::map<ChannelKey, Channel> channels_;
  uint64_t written_ = 0, collectivesCut_ = 0;
  Event scratch_;
};

}  // namespace mtf::structure
