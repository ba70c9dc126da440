// mtf-example-reader TRACE: an analyzer using only the installed mtf API. Prints
//   events N                     (every event of the trace)
//   location ID events N loops L (per location: its events, and the loops found in them)
// then each location's loop program as `mtf loops` prints it.
#include <cstdio>
#include <iostream>
#include <map>
#include <mtf/mtf.hpp>

namespace {

// Loops in a loop program, nested ones included.
uint64_t countLoops(const std::vector<mtf::api::LoopElement>& elements) {
  uint64_t n = 0;
  for (const mtf::api::LoopElement& e : elements)
    if (e.loop) n += 1 + countLoops(e.body);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mtf-example-reader TRACE\n");
    return 1;
  }
  try {
    mtf::api::Trace trace = mtf::api::Trace::open(argv[1]);
    std::map<mtf::api::LocationId, uint64_t> events;
    uint64_t total = 0;
    trace.events([&](const mtf::api::Event& e) {
      ++events[e.location];
      ++total;
    });
    std::cout << "events " << total << '\n';
    std::map<mtf::api::LocationId, mtf::api::LocationLoops> loops;
    for (mtf::api::LocationLoops& l : trace.loops()) loops[l.location] = std::move(l);
    for (const mtf::api::Location& l : trace.definitions().locations) {
      if (!events.count(l.id)) continue;
      const auto found = loops.find(l.id);
      const uint64_t n = found == loops.end() ? 0 : countLoops(found->second.program);
      std::cout << "location " << l.id << " events " << events[l.id] << " loops " << n << '\n';
    }
    for (const auto& [id, l] : loops) std::cout << '\n' << l.text;
  } catch (const mtf::api::Error& e) {
    std::fprintf(stderr, "mtf-example-reader: %s\n", e.what());
    return e.code();
  }
  return 0;
}
