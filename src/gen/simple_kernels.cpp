// Setup and final phases shared by every kernel, and the ring and butterfly kernels.
#include <algorithm>

#include "gen/kernels.hpp"

namespace mtf::gen {

namespace {

constexpr uint64_t kInitNs = 2'000'000;
constexpr uint64_t kCollectiveNs = 30'000;
constexpr uint64_t kFinalizeNs = 400'000;
constexpr uint64_t kParameterBytes = 64;  // the broadcast of the run's parameters
constexpr uint64_t kResidualBytes = 8;    // one double reduced at the end
constexpr uint64_t kSelfBytes = 16;       // --self-messages: a rank's message to itself
constexpr uint32_t kSelfTag = 99;

// --self-messages: Irecv, Isend and Waitall of one message to the rank itself (10 events).
void emitSelfMessage(RankEmitter& e, StepSchedule& schedule) {
  const Window step = schedule.next(kCollectiveNs);
  e.irecv(e.rank(), kSelfTag, kSelfBytes, jittered(e, step, 500, 650));
  e.waitUntil(jittered(e, step, 0, 200));
  e.isend(e.rank(), kSelfTag, kSelfBytes);
  e.waitall();
}

}  // namespace

void emitSetup(RankEmitter& e, StepSchedule& schedule) {
  const Window init = schedule.next(kInitNs);
  e.programBegin(jittered(e, init, 0, 100));
  e.enter(RegionId::Main);
  e.enter(RegionId::MpiInit);
  e.waitUntil(jittered(e, init, 880, 920));  // every rank leaves MPI_Init at about the same time
  e.leave(RegionId::MpiInit);
  e.call(RegionId::MpiCommSize, 300);
  e.call(RegionId::MpiCommRank, 250);
  const Window bcast = schedule.next(kCollectiveNs);
  const uint64_t ranks = e.context().options.ranks;
  e.collective(RegionId::MpiBcast, CollectiveOp::Bcast, 0,
               e.rank() == 0 ? ranks * kParameterBytes : 0, kParameterBytes,
               jittered(e, bcast, 600, 900));
  if (e.context().options.selfMessages) emitSelfMessage(e, schedule);
}

void emitFinal(RankEmitter& e, StepSchedule& schedule) {
  const uint64_t ranks = e.context().options.ranks;
  const Window reduce = schedule.next(kCollectiveNs);
  e.collective(RegionId::MpiAllreduce, CollectiveOp::Allreduce, kNoRoot, ranks * kResidualBytes,
               ranks * kResidualBytes, jittered(e, reduce, 600, 900));
  const Window barrier = schedule.next(kCollectiveNs);
  e.collective(RegionId::MpiBarrier, CollectiveOp::Barrier, kNoRoot, 0, 0,
               jittered(e, barrier, 700, 800));
  const Window finalize = schedule.next(kFinalizeNs);
  e.enter(RegionId::MpiFinalize);
  e.waitUntil(jittered(e, finalize, 850, 950));
  e.leave(RegionId::MpiFinalize);
  e.leave(RegionId::Main);
  e.programEnd();
  e.markRunEnd(std::max(schedule.cursor(), e.now()));
}

// Ring: rank r sends to r+1 and receives from r-1. Even ranks send first (step A) and
// receive in step B; odd ranks receive in step A and send in step B, the classic order
// that avoids a deadlock with blocking calls. A message sent in a step is received late
// in that step or in the next one, so every receive completes after its send.
void generateRing(RankEmitter& e) {
  constexpr uint64_t kComputeNs = 150'000, kStepNs = 40'000, kBytes = 4096;
  constexpr uint32_t kTag = 1;
  const GenOptions& o = e.context().options;
  const uint32_t next = (e.rank() + 1) % o.ranks;
  const uint32_t prev = (e.rank() + o.ranks - 1) % o.ranks;
  const Tick latency = e.ns(latencyNs(kBytes));
  const bool sendsFirst = e.rank() % 2 == 0;
  StepSchedule schedule(o.seed, e.context().scale, 0);
  emitSetup(e, schedule);
  for (uint32_t it = 0; it < o.iterations; ++it) {
    e.enter(RegionId::Iteration);
    const Window work = schedule.next(kComputeNs);
    e.computeUntil(jittered(e, work, 550, 950));
    const Window stepA = schedule.next(kStepNs);
    const Window stepB = schedule.next(kStepNs);
    if (sendsFirst) {
      e.send(next, kTag, kBytes, jittered(e, stepA, 0, 200));
      e.recv(prev, kTag, kBytes, jittered(e, stepB, 500, 650) + latency);
    } else {
      e.recv(prev, kTag, kBytes, jittered(e, stepA, 500, 650) + latency);
      e.send(next, kTag, kBytes, jittered(e, stepB, 0, 200));
    }
    e.leave(RegionId::Iteration);
  }
  emitFinal(e, schedule);
}

// Butterfly: a hand-written recursive-doubling allreduce. Stage s exchanges with
// rank XOR 2^s through Irecv + Isend + Waitall; every stage is one global step.
void generateButterfly(RankEmitter& e) {
  constexpr uint64_t kComputeNs = 120'000, kStageNs = 40'000, kBytes = 8192;
  const GenOptions& o = e.context().options;
  uint32_t stages = 0;
  while ((1u << stages) < o.ranks) ++stages;
  const Tick latency = e.ns(latencyNs(kBytes));
  StepSchedule schedule(o.seed, e.context().scale, 0);
  emitSetup(e, schedule);
  for (uint32_t it = 0; it < o.iterations; ++it) {
    e.enter(RegionId::Iteration);
    const Window work = schedule.next(kComputeNs);
    e.computeUntil(jittered(e, work, 550, 950));
    for (uint32_t s = 0; s < stages; ++s) {
      const Window stage = schedule.next(kStageNs);
      const uint32_t partner = e.rank() ^ (1u << s);
      const uint32_t tag = 100 + s;
      e.irecv(partner, tag, kBytes, jittered(e, stage, 500, 650) + latency);
      e.waitUntil(jittered(e, stage, 0, 200));
      e.isend(partner, tag, kBytes);
      e.waitall();
    }
    e.leave(RegionId::Iteration);
  }
  emitFinal(e, schedule);
}

}  // namespace mtf::gen
