// Test helper: a synthetic MPI wavefront (LU-like) on a W x H grid of ranks, as the
// events of each rank, with definitions made the OTF2 way. Used by the NLR tests before
// (and besides) the generator and the OTF2 reader.
#pragma once

#include <functional>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/mpi_ranks.hpp"

namespace mtf::nlr::testing {

struct Wavefront {
  int width = 4, height = 4, iterations = 249, inner = 160;
  Definitions defs;
  Ref world = kUndefinedRef;
  Ref send = 0, recv = 0, allreduce = 0, barrier = 0, main = 0;

  Wavefront(int w, int h, int iters, int innerIters)
      : width(w), height(h), iterations(iters), inner(innerIters) {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("machine", "machine");
    std::vector<LocationId> locations;
    for (int r = 0; r < w * h; ++r) {
      const uint64_t group = b.locationGroup("MPI Rank " + std::to_string(r), node);
      b.location(100 + r, "Master thread", group);
      locations.push_back(100 + r);
    }
    world = defineMpiWorld(b, locations);
    main = b.region("main", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    allreduce = b.region("MPI_Allreduce", RegionRole::CollAll2All, Paradigm::Mpi);
    barrier = b.region("MPI_Barrier", RegionRole::Barrier, Paradigm::Mpi);
  }

  // Emits rank `r`'s events in order; times increase by one tick per event.
  void rankEvents(int r, const std::function<void(const Event&)>& emit) const {
    Event e;
    Tick t = 0;
    const LocationId loc = 100 + static_cast<LocationId>(r);
    auto put = [&](EventKind k, std::initializer_list<uint64_t> f) {
      e.set(k, loc, ++t, f);
      emit(e);
    };
    auto call = [&](Ref region, auto body) {
      put(EventKind::Enter, {region});
      body();
      put(EventKind::Leave, {region});
    };
    auto sendTo = [&](int peer, uint32_t tag) {
      call(send, [&] { put(EventKind::MpiSend, {uint64_t(peer), world, tag, 800}); });
    };
    auto recvFrom = [&](int peer, uint32_t tag) {
      call(recv, [&] { put(EventKind::MpiRecv, {uint64_t(peer), world, tag, 800}); });
    };
    auto collective = [&](Ref region) {
      call(region, [&] {
        put(EventKind::MpiCollectiveBegin, {});
        put(EventKind::MpiCollectiveEnd, {2, world, 0xFFFFFFFFu, 8, 8});
      });
    };
    const int x = r % width, y = r / width;
    const bool east = x + 1 < width, south = y + 1 < height, west = x > 0, north = y > 0;
    auto exchange = [&] {
      if (east) sendTo(r + 1, 2), recvFrom(r + 1, 1);
      if (south) sendTo(r + width, 4), recvFrom(r + width, 3);
      if (west) sendTo(r - 1, 1), recvFrom(r - 1, 2);
      if (north) sendTo(r - width, 3), recvFrom(r - width, 4);
    };
    put(EventKind::Enter, {main});
    collective(allreduce);
    exchange();
    collective(allreduce);
    collective(barrier);
    for (int it = 0; it < iterations; ++it) {
      for (int k = 0; k < inner; ++k) {  // lower sweep: from the north-west corner
        if (north) recvFrom(r - width, 4);
        if (west) recvFrom(r - 1, 2);
        if (east) sendTo(r + 1, 2);
        if (south) sendTo(r + width, 4);
      }
      for (int k = 0; k < inner; ++k) {  // upper sweep: from the south-east corner
        if (east) recvFrom(r + 1, 1);
        if (south) recvFrom(r + width, 3);
        if (west) sendTo(r - 1, 1);
        if (north) sendTo(r - width, 3);
      }
      exchange();
    }
    collective(allreduce);
    put(EventKind::Leave, {main});
  }
};

}  // namespace mtf::nlr::testing
