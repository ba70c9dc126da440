#include "gen/rank_emitter.hpp"

#include <algorithm>

namespace mtf::gen {

namespace {

constexpr std::array<RegionSpec, kRegionCount> kRegions = {{
    {"main", RegionRole::Function, Paradigm::User},
    {"MPI_Init", RegionRole::Function, Paradigm::Mpi},
    {"MPI_Finalize", RegionRole::Function, Paradigm::Mpi},
    {"MPI_Comm_size", RegionRole::Function, Paradigm::Mpi},
    {"MPI_Comm_rank", RegionRole::Function, Paradigm::Mpi},
    {"MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi},
    {"MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi},
    {"MPI_Isend", RegionRole::PointToPoint, Paradigm::Mpi},
    {"MPI_Irecv", RegionRole::PointToPoint, Paradigm::Mpi},
    {"MPI_Waitall", RegionRole::PointToPoint, Paradigm::Mpi},
    {"MPI_Bcast", RegionRole::CollOne2All, Paradigm::Mpi},
    {"MPI_Allreduce", RegionRole::CollAll2All, Paradigm::Mpi},
    {"MPI_Barrier", RegionRole::Barrier, Paradigm::Mpi},
    {"MPI_Iprobe", RegionRole::PointToPoint, Paradigm::Mpi},
    {"iteration", RegionRole::Function, Paradigm::User},
    {"sweep_forward", RegionRole::Function, Paradigm::User},
    {"sweep_backward", RegionRole::Function, Paradigm::User},
    {"exchange", RegionRole::Function, Paradigm::User},
    {"compute", RegionRole::Function, Paradigm::User},
    {"task", RegionRole::Function, Paradigm::User},
    {"log_progress", RegionRole::Function, Paradigm::User},
    {"check_convergence", RegionRole::Function, Paradigm::User},
}};

// Calls inserted as noise: unrelated to the kernel's communication, never a message.
constexpr std::array<RegionId, 4> kNoiseCalls = {RegionId::MpiIprobe, RegionId::MpiCommRank,
                                                 RegionId::LogProgress, RegionId::CheckConvergence};

}  // namespace

const RegionSpec& regionSpec(RegionId id) {
  return kRegions[static_cast<size_t>(id)];
}

RankEmitter::RankEmitter(TraceSink& sink, const GenContext& context, uint32_t rank)
    : sink_(sink),
      context_(context),
      rank_(rank),
      rng_(hashOf(context.options.seed, 0x7a4b, rank)),
      minGap_(std::max<Tick>(1, context.scale.fromNs(40))),
      maxGap_(std::max<Tick>(2, context.scale.fromNs(400))) {
  event_.fields.reserve(8);
}

Tick RankEmitter::advance() {
  clock_ += rng_.uniform(minGap_, maxGap_);
  return clock_;
}

Tick RankEmitter::advanceTo(Tick target) {
  if (target > clock_) {
    clock_ = target;
    return clock_;
  }
  return advance();
}

void RankEmitter::emit(EventKind kind, Tick time, std::initializer_list<uint64_t> fields) {
  event_.set(kind, rank_, time, fields);
  sink_.event(event_);
  ++events_;
}

void RankEmitter::programBegin(Tick at) {
  waitUntil(at);
  emit(EventKind::ProgramBegin, clock_, {context_.programName, 0});
}

void RankEmitter::programEnd() {
  emit(EventKind::ProgramEnd, advance(), {0});
}

void RankEmitter::enter(RegionId region) {
  emit(EventKind::Enter, advance(), {context_.regions[static_cast<size_t>(region)]});
}

void RankEmitter::leave(RegionId region) {
  emit(EventKind::Leave, advance(), {context_.regions[static_cast<size_t>(region)]});
}

void RankEmitter::bufferFlush(Tick stop) {
  const Tick at = advance();
  emit(EventKind::BufferFlush, at, {std::max(stop, at)});
  waitUntil(stop);
}

void RankEmitter::call(RegionId region, uint64_t durationNs) {
  enter(region);
  waitUntil(clock_ + ns(durationNs));
  leave(region);
  maybeNoise();
}

void RankEmitter::computeUntil(Tick end, RegionId region) {
  enter(region);
  waitUntil(end);
  leave(region);
  maybeNoise();
}

void RankEmitter::send(uint32_t receiver, uint32_t tag, uint64_t bytes, Tick notBefore) {
  enter(RegionId::MpiSend);
  const Route to = context_.comms.route(rank_, receiver);
  emit(EventKind::MpiSend, advanceTo(notBefore), {to.rank, to.comm, tag, bytes});
  waitUntil(clock_ + ns(sendCostNs(bytes)));
  leave(RegionId::MpiSend);
  maybeNoise();
}

void RankEmitter::recv(uint32_t sender, uint32_t tag, uint64_t bytes, Tick arrival) {
  enter(RegionId::MpiRecv);
  const Route from = context_.comms.route(rank_, sender);
  emit(EventKind::MpiRecv, advanceTo(arrival), {from.rank, from.comm, tag, bytes});
  leave(RegionId::MpiRecv);
  maybeNoise();
}

void RankEmitter::isend(uint32_t receiver, uint32_t tag, uint64_t bytes) {
  enter(RegionId::MpiIsend);
  const uint64_t request = nextRequest_++;
  const Route to = context_.comms.route(rank_, receiver);
  emit(EventKind::MpiIsend, advance(), {to.rank, to.comm, tag, bytes, request});
  // The send buffer is free (the request completes) once it has been copied out.
  pending_.push_back({clock_ + ns(sendCostNs(bytes)), request, false, receiver, tag, bytes});
  leave(RegionId::MpiIsend);
  maybeNoise();
}

void RankEmitter::irecv(uint32_t sender, uint32_t tag, uint64_t bytes, Tick arrival) {
  enter(RegionId::MpiIrecv);
  const uint64_t request = nextRequest_++;
  emit(EventKind::MpiIrecvRequest, advance(), {request});
  pending_.push_back({arrival, request, true, sender, tag, bytes});
  leave(RegionId::MpiIrecv);
  maybeNoise();
}

void RankEmitter::waitall() {
  enter(RegionId::MpiWaitall);
  // Score-P checks the requests of MPI_Waitall in array order once PMPI_Waitall
  // returns, so the completion events come in posting order, all after the last
  // request finished, whatever order the messages arrived in.
  Tick allDone = clock_;
  for (const Pending& p : pending_) allDone = std::max(allDone, p.done);
  advanceTo(allDone);
  for (const Pending& p : pending_) {
    const Tick t = advance();
    if (p.isRecv) {
      const Route from = context_.comms.route(rank_, p.peer);
      emit(EventKind::MpiIrecv, t, {from.rank, from.comm, p.tag, p.bytes, p.request});
    } else {
      emit(EventKind::MpiIsendComplete, t, {p.request});
    }
  }
  pending_.clear();
  leave(RegionId::MpiWaitall);
  maybeNoise();
}

void RankEmitter::collective(RegionId region, CollectiveOp op, uint32_t root, uint64_t sent,
                             uint64_t received, Tick release) {
  enter(region);
  // Score-P records the begin at the same time as the Enter.
  emit(EventKind::MpiCollectiveBegin, clock_, {});
  emit(EventKind::MpiCollectiveEnd, advanceTo(release),
       {static_cast<uint64_t>(op), context_.world, root, sent, received});
  leave(region);
  maybeNoise();
}

void RankEmitter::maybeNoise() {
  if (!rng_.chance(context_.noiseThreshold)) return;
  const RegionId region = kNoiseCalls[rng_.uniform(0, kNoiseCalls.size() - 1)];
  enter(region);
  waitUntil(clock_ + ns(rng_.uniform(200, 3000)));
  leave(region);
}

}  // namespace mtf::gen
