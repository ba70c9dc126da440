// In-process compaction benchmark: reads an OTF2 trace through the project's reader into
// an empty sink (baseline), then again into the MTF binary writer, and prints the time
// ratio and the archive's parts. Usage: compaction_bench TRACE.otf2 OUT.mtf [TIME_MODE]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "converters/mtf/binary/archive.hpp"
#include "converters/otf2/otf2_reader.hpp"

namespace {

class CountingSink : public mtf::TraceSink {
 public:
  void begin(const mtf::Definitions&) override {}
  void event(const mtf::Event&) override { ++events; }
  void end() override {}
  uint64_t events = 0;
};

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TRACE.otf2 OUT.mtf [TIME_MODE 0|1] [ZLIB_LEVEL]\n", argv[0]);
    return 1;
  }
  try {
    mtf::compaction::CompactorOptions options;
    if (argc > 3) options.timePrediction = static_cast<uint8_t>(std::atoi(argv[3]));
    if (argc > 4) options.level = std::atoi(argv[4]);
    auto start = std::chrono::steady_clock::now();
    CountingSink counter;
    mtf::otf2::Otf2Reader(argv[1], {}).read(counter);
    const double readSeconds = secondsSince(start);

    start = std::chrono::steady_clock::now();
    mtf::mtfbin::ArchiveWriter writer(argv[2], options);
    mtf::otf2::Otf2Reader(argv[1], {}).read(writer);
    const double convertSeconds = secondsSince(start);

    mtf::mtfbin::ArchiveReader reader(argv[2]);
    const auto s = reader.sizes();
    const auto f = reader.model()->totalFigures();
    std::printf("events %llu\nread (baseline) %.3f s\nread+compact+write %.3f s  ratio %.3f\n",
                static_cast<unsigned long long>(counter.events), readSeconds, convertSeconds,
                convertSeconds / readSeconds);
    std::printf(
        "archive %llu bytes: structure %llu, values %llu, definitions %llu, index %llu\n",
        static_cast<unsigned long long>(s.file), static_cast<unsigned long long>(s.structure),
        static_cast<unsigned long long>(s.values), static_cast<unsigned long long>(s.definitions),
        static_cast<unsigned long long>(s.index));
    std::printf("DAG %llu nodes %llu edges; tree %llu nodes; rate %.3f%%\n",
                static_cast<unsigned long long>(f.dagNodes),
                static_cast<unsigned long long>(f.dagEdges),
                static_cast<unsigned long long>(f.treeNodes), f.compactionRate());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
