// Generator speed, as ratios to a baseline measured in the same run.
//   floor:      the same number of events pushed through the TraceSink interface with
//               nothing computed (Event::set + a virtual call): the cost any producer pays.
//   gen -> null: mtf-gen's wavefront (default 16 ranks, 249 iterations, 160 inner) into a
//               sink that only looks at each event.
//   gen -> otf2: the same into the OTF2 writer (archive under the directory given, or the
//               temp directory), i.e. what `mtf-gen ... -o X.otf2` costs.
// Usage: bench_gen [RANKS ITERATIONS INNER [OUTPUT_DIR]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "converters/otf2/otf2_format.hpp"
#include "gen/generator.hpp"

namespace {

struct LookingSink : mtf::TraceSink {
  uint64_t count = 0, digest = 0;
  void begin(const mtf::Definitions&) override {}
  void event(const mtf::Event& e) override {
    ++count;
    digest += e.time ^ (e.fields.empty() ? 0 : e.fields[0]);
  }
  void end() override {}
};

double seconds(const std::chrono::steady_clock::time_point& since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double floorSeconds(uint64_t events, mtf::TraceSink& sink) {
  const auto start = std::chrono::steady_clock::now();
  mtf::Event e;
  for (uint64_t i = 0; i < events; ++i) {
    e.set(mtf::EventKind::MpiSend, i & 15, i * 3, {i & 7, 0, 1, 4096});
    sink.event(e);
  }
  return seconds(start);
}

}  // namespace

int main(int argc, char** argv) {
  mtf::gen::GenOptions o;
  o.ranks = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 16;
  o.iterations = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 249;
  o.inner = argc > 3 ? static_cast<uint32_t>(std::atoi(argv[3])) : 160;
  const std::filesystem::path dir =
      argc > 4 ? std::filesystem::path(argv[4]) : std::filesystem::temp_directory_path();

  LookingSink null;
  auto start = std::chrono::steady_clock::now();
  const uint64_t events = mtf::gen::generate(o, null);
  const double genNull = seconds(start);
  LookingSink floorSink;
  const double floor = floorSeconds(events, floorSink);

  const std::filesystem::path archive = dir / "bench_gen_trace";
  std::filesystem::create_directories(archive);
  start = std::chrono::steady_clock::now();
  {
    auto writer = mtf::otf2Format().openWriter(archive / "trace.otf2", mtf::WriteOptions{});
    mtf::gen::generate(o, *writer);
  }
  const double genOtf2 = seconds(start);
  std::filesystem::remove_all(archive);

  std::printf("wavefront %u ranks, %u iterations, %u inner: %llu events\n", o.ranks, o.iterations,
              o.inner, static_cast<unsigned long long>(events));
  std::printf("floor (bare sink calls): %.3f s\n", floor);
  std::printf("gen -> null sink:        %.3f s  %.1f M events/s  ratio to floor %.2f\n", genNull,
              events / genNull / 1e6, genNull / floor);
  std::printf("gen -> OTF2 writer:      %.3f s  %.1f M events/s  ratio to gen->null %.2f\n",
              genOtf2, events / genOtf2 / 1e6, genOtf2 / genNull);
  return null.digest == 42 ? 1 : 0;  // keeps the sinks' work observable
}
