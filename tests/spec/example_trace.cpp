#include "example_trace.hpp"

#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::spec {
namespace {

struct Example {
  Definitions defs;
  Ref world = 0, main = 0, send = 0, recv = 0;

  Example() {
    DefinitionBuilder b(defs);
    const uint64_t node = b.systemTreeNode("node", "machine");
    b.location(0, "rank 0", b.locationGroup("rank 0", node));
    b.location(1, "rank 1", b.locationGroup("rank 1", node));
    world = defineMpiWorld(b, {0, 1});
    main = b.region("main", RegionRole::Function, Paradigm::User);
    send = b.region("MPI_Send", RegionRole::PointToPoint, Paradigm::Mpi);
    recv = b.region("MPI_Recv", RegionRole::PointToPoint, Paradigm::Mpi);
    defs.clock.resolution = 1'000'000'000;  // nanosecond ticks
    defs.clock.traceLength = 1000;
    defs.info.format = "example";
    defs.info.creator = "docs/mtf-format.md";
  }

  // One location: main { 2 x (call; message) }, the message 10 ns (send) or 90 ns
  // (receive) into a 100 ns call; 10 ns of jitter on the second call's end.
  void rank(TraceSink& sink, LocationId self) const {
    const bool sender = self == 0;
    const Ref call = sender ? send : recv;
    Event e;
    auto put = [&](EventKind kind, Tick t, std::initializer_list<uint64_t> fields) {
      e.set(kind, self, t, fields);
      sink.event(e);
    };
    put(EventKind::Enter, 100, {main});
    for (Tick start : {200, 400}) {
      put(EventKind::Enter, start, {call});
      if (sender)
        put(EventKind::MpiSend, start + 10, {1, world, 7, 64});
      else
        put(EventKind::MpiRecv, start + 90, {0, world, 7, 64});
      put(EventKind::Leave, start + (start == 200 ? 100 : 110), {call});
    }
    put(EventKind::Leave, 1000, {main});
  }
};

}  // namespace

void writeExampleArchive(const std::filesystem::path& path) {
  const Example example;
  WriteOptions options;
  options.loops = false;
  options.model = false;
  auto writer = formatByName("mtf")->openWriter(path, options);
  writer->begin(example.defs);
  example.rank(*writer, 0);
  example.rank(*writer, 1);
  writer->end();
}

}  // namespace mtf::spec
