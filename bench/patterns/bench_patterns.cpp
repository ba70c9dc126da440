// bench_patterns MODE TRACE: reads TRACE once and prints wall seconds and events.
//   MODE read    : bare read into a sink that only counts events (the baseline)
//   MODE detect  : pattern detection (per-location collapse + maximal repeats)
//   MODE analyze : detection + communication patterns + classification (mtf patterns)
// bench_patterns.sh runs the modes in separate processes (for peak memory) and prints
// the ratios.
#include <chrono>
#include <iostream>
#include <string>

#include "patterns/analysis.hpp"
#include "registry/registry.hpp"
#include "util/error.hpp"

namespace {

class CountingSink : public mtf::TraceSink {
 public:
  void begin(const mtf::Definitions&) override {}
  void event(const mtf::Event& e) override {
    ++events;
    checksum += e.time;  // keep the read from being optimized away
  }
  void end() override {}
  uint64_t events = 0, checksum = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: bench_patterns read|detect|analyze TRACE\n";
    return 1;
  }
  const std::string mode = argv[1];
  try {
    const auto start = std::chrono::steady_clock::now();
    auto source = mtf::openTrace(argv[2], mtf::ReadOptions{});
    uint64_t events = 0;
    std::string summary;
    if (mode == "read") {
      CountingSink sink;
      source->read(sink);
      events = sink.events;
      summary = "checksum " + std::to_string(sink.checksum);
    } else {
      mtf::patterns::PatternDetector detector;
      CountingSink counter;
      mtf::TeeSink tee({&detector, &counter});
      source->read(tee);
      events = counter.events;
      if (mode == "analyze") {
        const auto report = mtf::patterns::analyzeDetected(detector);
        for (const auto& u : report.known) summary += u.pattern + " ";
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << mode << " seconds " << seconds << " events " << events << " " << summary << "\n";
  } catch (const mtf::Error& e) {
    std::cerr << "bench_patterns: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
