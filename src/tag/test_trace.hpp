// Test helper: small hand-made MPI traces for the TAG tests (definitions made the OTF2
// way, events written per location with explicit times).
#pragma once

#include <initializer_list>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::tag::testing {

struct SmallTrace {
  Definitions defs;
  Ref world = kUndefinedRef;
  Ref main = 0, f1 = 0, f2 = 0, send = 0, recv = 0, isend = 0, irecv = 0, wait = 0, allreduce = 0,
      bcast = 0;
  std::vector<Event> events;

  explicit SmallTrace(int ranks, uint64_t resolution = 1'000'000'000) {
    defs.clock.resolution = resolution;
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("machine", "machine");
    std::vector<LocationId> locations;
    for (int r = 0; r < ranks; ++r) {
      b.location(r, "Master thread", b.locationGroup("MPI Rank " + std::to_string(r), node));
      locations.push_back(r);
    }
    world = defineMpiWorld(b, locations);
    main = b.region("main", RegionRole::Function, Paradigm::User);
    f1 = b.region("f1", RegionRole::Function, Paradigm::User);
    f2 = b.region("f2", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    isend = b.region("MPI_Isend", RegionRole::PointToPoint, Paradigm::Mpi);
    irecv = b.region("MPI_Irecv", RegionRole::PointToPoint, Paradigm::Mpi);
    wait = b.region("MPI_Wait", RegionRole::PointToPoint, Paradigm::Mpi);
    allreduce = b.region("MPI_Allreduce", RegionRole::CollAll2All, Paradigm::Mpi);
    bcast = b.region("MPI_Bcast", RegionRole::CollOne2All, Paradigm::Mpi);
  }

  void put(LocationId loc, Tick t, EventKind k, std::initializer_list<uint64_t> fields) {
    Event e;
    e.set(k, loc, t, fields);
    events.push_back(e);
  }
  void enter(LocationId loc, Tick t, Ref region) { put(loc, t, EventKind::Enter, {region}); }
  void leave(LocationId loc, Tick t, Ref region) { put(loc, t, EventKind::Leave, {region}); }
  // MPI_Send from `from` to `to` in [t, t + 2].
  void sendCall(LocationId from, Tick t, uint64_t to, uint32_t tag, uint64_t bytes) {
    enter(from, t, send);
    put(from, t + 1, EventKind::MpiSend, {to, world, tag, bytes});
    leave(from, t + 2, send);
  }
  void recvCall(LocationId at, Tick t, uint64_t from, uint32_t tag, uint64_t bytes) {
    enter(at, t, recv);
    put(at, t + 1, EventKind::MpiRecv, {from, world, tag, bytes});
    leave(at, t + 2, recv);
  }
  // A collective call of `region` (OTF2 op number `op`) in [t, t + 2].
  void collectiveCall(LocationId at, Tick t, Ref region, uint8_t op, uint64_t root) {
    enter(at, t, region);
    put(at, t, EventKind::MpiCollectiveBegin, {});
    put(at, t + 2, EventKind::MpiCollectiveEnd, {op, world, root, 8, 8});
    leave(at, t + 2, region);
  }

  // Streams the events into `sink`, in the order they were added.
  void feed(TraceSink& sink) const {
    sink.begin(defs);
    for (const Event& e : events) sink.event(e);
    sink.end();
  }
};

}  // namespace mtf::tag::testing
