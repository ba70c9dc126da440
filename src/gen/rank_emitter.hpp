// Writes the events of one rank: MPI calls the way Score-P records them (Enter, the MPI
// event, Leave), user regions, and optional noise. Keeps the rank's clock: every event is
// at or after the previous one, so each location's events are in time order.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "gen/comm_layout.hpp"
#include "gen/gen_options.hpp"
#include "gen/random.hpp"
#include "gen/timing.hpp"
#include "model/trace_stream.hpp"

namespace mtf::gen {

// Every region a generated trace defines (all kernels share one table, like Score-P which
// defines every MPI function whether or not the program calls it).
enum class RegionId : uint8_t {
  Main,
  MpiInit,
  MpiFinalize,
  MpiCommSize,
  MpiCommRank,
  MpiSend,
  MpiRecv,
  MpiIsend,
  MpiIrecv,
  MpiWaitall,
  MpiBcast,
  MpiAllreduce,
  MpiBarrier,
  MpiIprobe,
  Iteration,
  SweepForward,
  SweepBackward,
  Exchange,
  Compute,
  Task,
  LogProgress,
  CheckConvergence,
  Count
};
inline constexpr size_t kRegionCount = static_cast<size_t>(RegionId::Count);

struct RegionSpec {
  const char* name;
  RegionRole role;
  Paradigm paradigm;
};
const RegionSpec& regionSpec(RegionId id);

// OTF2_CollectiveOp values.
enum class CollectiveOp : uint8_t { Barrier = 0, Bcast = 1, Allreduce = 11 };
inline constexpr uint32_t kNoRoot = 0xFFFFFFFFu;  // OTF2_UNDEFINED_UINT32

// What all ranks of one generation share (read-only while generating).
struct GenContext {
  GenOptions options;
  TickScale scale{1'000'000'000};
  std::array<Ref, kRegionCount> regions{};
  Ref world = kUndefinedRef;
  CommLayout comms;  // the communicator of each point-to-point message
  Ref programName = kUndefinedRef;
  uint64_t noiseThreshold = 0;  // noise probability scaled to 2^64
};

class RankEmitter {
 public:
  RankEmitter(TraceSink& sink, const GenContext& context, uint32_t rank);

  uint32_t rank() const { return rank_; }
  const GenContext& context() const { return context_; }
  Rng& rng() { return rng_; }
  Tick now() const { return clock_; }
  uint64_t eventCount() const { return events_; }
  Tick ns(uint64_t nanoseconds) const { return context_.scale.fromNs(nanoseconds); }
  // Lets time pass (waiting, idle) until `t`; never moves the clock back.
  void waitUntil(Tick t) {
    if (t > clock_) clock_ = t;
  }
  // The end of the run's last global step (the same for every rank): no event is later.
  void markRunEnd(Tick t) { runEnd_ = t; }
  Tick runEnd() const { return runEnd_; }

  void programBegin(Tick at);
  void programEnd();
  void enter(RegionId region);
  void leave(RegionId region);
  // Enter + Leave of a call without an MPI event (MPI_Comm_rank, MPI_Finalize, ...).
  void call(RegionId region, uint64_t durationNs);
  // A BufferFlush from now until `stop` (the rank is busy writing its trace buffer).
  void bufferFlush(Tick stop);
  // A region (by default "compute") that ends at `end` (at least one gap after it begins).
  void computeUntil(Tick end, RegionId region = RegionId::Compute);

  // MPI_Send; the MpiSend event is not before `notBefore`.
  void send(uint32_t receiver, uint32_t tag, uint64_t bytes, Tick notBefore = 0);
  // MPI_Recv; the message is there at `arrival` (the call waits for it).
  void recv(uint32_t sender, uint32_t tag, uint64_t bytes, Tick arrival);
  void isend(uint32_t receiver, uint32_t tag, uint64_t bytes);
  void irecv(uint32_t sender, uint32_t tag, uint64_t bytes, Tick arrival);
  // MPI_Waitall over every request posted since the last wait, completed in time order.
  void waitall();
  // Enter, MpiCollectiveBegin, MpiCollectiveEnd (not before `release`), Leave.
  void collective(RegionId region, CollectiveOp op, uint32_t root, uint64_t sent, uint64_t received,
                  Tick release);

 private:
  struct Pending {
    Tick done;
    uint64_t request;
    bool isRecv;
    uint32_t peer, tag;
    uint64_t bytes;
  };
  Tick advance();               // the next event's time: a small random gap later
  Tick advanceTo(Tick target);  // at `target`, or a gap later if the clock is past it
  void emit(EventKind kind, Tick time, std::initializer_list<uint64_t> fields);
  void maybeNoise();

  TraceSink& sink_;
  const GenContext& context_;
  uint32_t rank_;
  Rng rng_;
  Tick clock_ = 0;
  Tick runEnd_ = 0;
  uint64_t events_ = 0;
  uint64_t nextRequest_ = 1;
  Tick minGap_, maxGap_;
  std::vector<Pending> pending_;
  Event event_;
};

}  // namespace mtf::gen
