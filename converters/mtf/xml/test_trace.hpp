// Test helpers: a small synthetic SPMD trace (two MPI ranks, a loop of compute + message
// exchange) and a sink that keeps every event.
#pragma once

#include <vector>

#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::xml::testing {

struct SyntheticTrace {
  Definitions defs;
  std::vector<Event> events;  // location after location, each in time order
};

// `iterations` loop iterations per rank; times jitter a little so values are not constant.
inline SyntheticTrace makeSyntheticTrace(uint64_t iterations) {
  SyntheticTrace t;
  DefinitionBuilder b(t.defs);
  t.defs.info.format = "otf2";
  t.defs.info.creator = "synthetic \x02 (not plain text)";
  t.defs.info.properties["paraver.pcf"] = "STATES\n0 Idle\n\tcontrol:\x01\r\n";
  t.defs.clock.resolution = 1000000;
  const uint64_t node = b.systemTreeNode("node-a", "node");
  for (LocationId rank = 0; rank < 2; ++rank)
    b.location(rank, "rank " + std::to_string(rank), b.locationGroup("rank", node));
  const Ref world = defineMpiWorld(b, {0, 1});
  const Ref main = b.region("main", RegionRole::Function, Paradigm::User);
  const Ref compute = b.region("compute \xff", RegionRole::Function, Paradigm::User);
  const Ref send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
  const Ref recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
  for (LocationId rank = 0; rank < 2; ++rank) {
    Tick time = 100 + rank;
    auto add = [&](EventKind kind, std::initializer_list<uint64_t> fields) {
      Event e;
      e.set(kind, rank, time, fields);
      t.events.push_back(e);
      time += 10 + (t.events.size() * 7919) % 5;
    };
    add(EventKind::Enter, {main});
    for (uint64_t i = 0; i < iterations; ++i) {
      add(EventKind::Enter, {compute});
      add(EventKind::Leave, {compute});
      const bool sending = (i + rank) % 2 == 0;
      add(EventKind::Enter, {sending ? send : recv});
      add(sending ? EventKind::MpiSend : EventKind::MpiRecv, {1 - rank, world, 7, 64 + i % 3});
      add(EventKind::Leave, {sending ? send : recv});
    }
    add(EventKind::Leave, {main});
  }
  return t;
}

inline void pumpInto(const SyntheticTrace& t, TraceSink& sink) {
  sink.begin(t.defs);
  for (const Event& e : t.events) sink.event(e);
  sink.end();
}

class CollectingSink : public TraceSink {
 public:
  void begin(const Definitions& defs) override { defs_ = defs; }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ended = true; }
  std::vector<Event> events;
  Definitions defs_;
  bool ended = false;
};

}  // namespace mtf::xml::testing
