// Read speed of the TAU reader on a large generated trace, as a ratio to `cat FILES >
// /dev/null` measured in the same run (same files, same page cache), plus events/s.
// Usage: mtf_tau_bench [records-per-thread] [scratch-dir]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "converters/tau/tau_reader.hpp"
#include "converters/tau/tau_writer.hpp"
#include "model/mpi_ranks.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// 4 MPI ranks x 2 threads: nested regions, ring messages, a counter every 8th step.
class SyntheticTrace : public mtf::TraceSource {
 public:
  explicit SyntheticTrace(uint64_t steps) : steps_(steps) {
    mtf::DefinitionBuilder b(defs_);
    defs_.clock.resolution = 1'000'000;
    const uint64_t root = b.systemTreeNode("machine", "machine");
    std::vector<mtf::LocationId> ranks;
    for (uint64_t r = 0; r < kRanks; ++r) {
      const uint64_t group = b.locationGroup("rank " + std::to_string(r), root);
      for (uint64_t t = 0; t < 2; ++t) b.location(r * 10 + t, "thread", group);
      ranks.push_back(r * 10);
    }
    world_ = mtf::defineMpiWorld(b, ranks);
    outer_ = b.region("solve", mtf::RegionRole::Function, mtf::Paradigm::User);
    inner_ = b.region("kernel", mtf::RegionRole::Function, mtf::Paradigm::User);
    metric_ = b.metric("bytes", "B", 8);
  }
  const mtf::Definitions& definitions() override { return defs_; }
  void read(mtf::TraceSink& sink) override {
    sink.begin(defs_);
    mtf::Event e;
    for (uint64_t r = 0; r < kRanks; ++r)
      for (uint64_t t = 0; t < 2; ++t) emitThread(sink, e, r, t);
    sink.end();
  }

 private:
  static constexpr uint64_t kRanks = 4;
  void emitThread(mtf::TraceSink& sink, mtf::Event& e, uint64_t rank, uint64_t thread) {
    const mtf::LocationId loc = rank * 10 + thread;
    uint64_t time = 1'000'000;
    for (uint64_t i = 0; i < steps_; ++i) {
      e.set(mtf::EventKind::Enter, loc, time++, {outer_});
      sink.event(e);
      e.set(mtf::EventKind::Enter, loc, time++, {inner_});
      sink.event(e);
      if (thread == 0) {
        e.set(mtf::EventKind::MpiSend, loc, time++, {(rank + 1) % kRanks, world_, 5, 4096});
        sink.event(e);
        e.set(mtf::EventKind::MpiRecv, loc, time++,
              {(rank + kRanks - 1) % kRanks, world_, 5, 4096});
        sink.event(e);
      }
      if (i % 8 == 0) {
        e.set(mtf::EventKind::Metric, loc, time++, {metric_, 1, 8, i});
        sink.event(e);
      }
      e.set(mtf::EventKind::Leave, loc, time++, {inner_});
      sink.event(e);
      e.set(mtf::EventKind::Leave, loc, time++, {outer_});
      sink.event(e);
    }
  }
  mtf::Definitions defs_;
  uint64_t steps_;
  mtf::Ref world_ = 0, outer_ = 0, inner_ = 0, metric_ = 0;
};

class CountingSink : public mtf::TraceSink {
 public:
  void begin(const mtf::Definitions&) override {}
  void event(const mtf::Event& e) override { checksum_ += e.time, ++events_; }
  void end() override {}
  uint64_t events_ = 0, checksum_ = 0;
};

double seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t steps = argc > 1 ? std::stoull(argv[1]) : 400'000;
  const fs::path dir = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "mtf-tau-bench";
  fs::remove_all(dir);
  SyntheticTrace trace(steps);
  {
    mtf::tau::TauWriter writer(dir, {});
    trace.read(writer);
  }
  uint64_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir)) bytes += entry.file_size();
  const std::string cat = "cat '" + dir.string() + "'/* > /dev/null";
  double catSeconds = 1e9, readSeconds = 1e9;
  CountingSink sink;
  for (int round = 0; round < 3; ++round) {  // best of three, the cat first (warms the cache)
    auto t0 = Clock::now();
    if (std::system(cat.c_str()) != 0) return 3;
    catSeconds = std::min(catSeconds, seconds(t0));
    t0 = Clock::now();
    mtf::tau::TauReader reader(dir, {});
    sink = CountingSink();
    reader.read(sink);
    readSeconds = std::min(readSeconds, seconds(t0));
  }
  std::printf("TAU trace: %.1f MB, %llu events\n", bytes / 1e6,
              static_cast<unsigned long long>(sink.events_));
  std::printf("cat:        %.3f s (%.0f MB/s)\n", catSeconds, bytes / 1e6 / catSeconds);
  std::printf("TAU reader: %.3f s (%.0f MB/s, %.2f M events/s)\n", readSeconds,
              bytes / 1e6 / readSeconds, sink.events_ / 1e6 / readSeconds);
  std::printf("ratio reader/cat: %.2f\n", readSeconds / catSeconds);
  fs::remove_all(dir);
  return 0;
}
