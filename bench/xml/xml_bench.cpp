// MTF XML benchmark. For mtf-gen kernels at 249 and 2490 iterations it measures, in one
// run: the compaction alone (the baseline: the XML writer compacts too), the XML writer
// (full, with NLR loops; structure-only; structure-only without loops), the reader
// (parse + expansion into events) and Xerces-C validation. Prints sizes and times as
// ratios to the baseline, and the growth of the structure-only file with the iterations.
//   usage: mtf_xml_bench [ranks=8] [inner=4]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "converters/mtf/xml/mtf_xml_format.hpp"
#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "converters/mtf/xml/xml_validate.hpp"
#include "gen/generator.hpp"

namespace fs = std::filesystem;
using namespace mtf;

namespace {

double seconds(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct CountingSink : TraceSink {
  void begin(const Definitions&) override {}
  void event(const Event&) override { ++events; }
  void end() override {}
  uint64_t events = 0;
};

struct Figures {
  uint64_t events = 0;
  double compact = 0, write = 0, read = 0, validate = 0;
  uintmax_t full = 0, structure = 0, structureNoLoops = 0;
};

Figures measure(gen::GenOptions options, const fs::path& dir) {
  Figures f;
  f.compact = seconds([&] {
    compaction::Compactor compactor;
    f.events = gen::generate(options, compactor);
  });
  auto writeXml = [&](const char* name, bool structureOnly, bool loops) {
    WriteOptions write;
    write.structureOnly = structureOnly;
    write.loops = loops;
    const fs::path p = dir / name;
    auto sink = mtfXmlFormat().openWriter(p, write);
    gen::generate(options, *sink);
    return p;
  };
  fs::path full;
  f.write = seconds([&] { full = writeXml("full.mtf.xml", false, true); });
  f.full = fs::file_size(full);
  f.structure = fs::file_size(writeXml("s.mtf.xml", true, true));
  f.structureNoLoops = fs::file_size(writeXml("sn.mtf.xml", true, false));
  f.read = seconds([&] {
    CountingSink sink;
    mtfXmlFormat().openReader(full, {})->read(sink);
    if (sink.events != f.events) std::fprintf(stderr, "event count mismatch!\n");
  });
  f.validate = seconds([&] { xml::validateAgainstSchema(full, xml::locateSchema()); });
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t ranks = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 8;
  const uint32_t inner = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 4;
  const fs::path dir = fs::temp_directory_path() / ("mtf_xml_bench_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::printf("%-10s %6s %9s %8s %9s %9s %9s | %7s %7s %7s %8s\n", "kernel", "iter", "events",
              "B/event", "struct B", "noloop B", "full B", "write/c", "read/c", "valid/c",
              "c ns/ev");
  for (gen::Kernel kernel : {gen::Kernel::Ring, gen::Kernel::Wavefront, gen::Kernel::Halo}) {
    Figures at[2];
    for (int k = 0; k < 2; ++k) {
      gen::GenOptions options;
      options.kernel = kernel;
      options.ranks = ranks;
      options.inner = inner;
      options.iterations = k == 0 ? 249 : 2490;
      const Figures f = at[k] = measure(options, dir);
      std::printf("%-10s %6u %9llu %8.2f %9ju %9ju %9ju | %7.2f %7.2f %7.2f %8.1f\n",
                  std::string(gen::kernelName(kernel)).c_str(), options.iterations,
                  static_cast<unsigned long long>(f.events), double(f.full) / double(f.events),
                  f.structure, f.structureNoLoops, f.full, f.write / f.compact, f.read / f.compact,
                  f.validate / f.compact, f.compact * 1e9 / double(f.events));
    }
    std::printf(
        "%-10s structure-only growth 249 -> 2490 iterations: %+.1f%% (without loops %+.1f%%)\n",
        std::string(gen::kernelName(kernel)).c_str(),
        100.0 * (double(at[1].structure) / double(at[0].structure) - 1),
        100.0 * (double(at[1].structureNoLoops) / double(at[0].structureNoLoops) - 1));
  }
  fs::remove_all(dir);
  return 0;
}
