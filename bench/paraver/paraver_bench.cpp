// mtf_paraver_bench [RECORDS [DIR]] (or mtf_paraver_bench FILE.prv to time only reading FILE):
// writes an Extrae-like trace of RECORDS records (default 10 million) into DIR (default the system
// temp dir), then prints
//  - reading it with the Paraver reader, as a ratio to `wc -l` on the same file, and as
//    records and model events per second;
//  - the same for the .prv.gz form, as a ratio to `zcat | wc -l`;
//  - writing the events back as .prv (external sort included), as a ratio to `cp`.
// Every figure is measured in this run, on this machine, in CPU seconds. Files are removed at the
// end.
#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>

#include "converters/paraver/extrae.hpp"
#include "converters/paraver/output_file.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_writer.hpp"

namespace fs = std::filesystem;
using namespace mtf;

namespace {

constexpr uint32_t kTasks = 64;

// CPU seconds (user + system) rather than wall time: the machine is shared, and CPU time
// keeps the ratios meaningful when other jobs run.
double secondsOf(const std::function<void()>& work) {
  timespec start{}, stop{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
  work();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &stop);
  return static_cast<double>(stop.tv_sec - start.tv_sec) + (stop.tv_nsec - start.tv_nsec) / 1e9;
}

double childSeconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// CPU seconds of a shell command and its children (the baseline tools).
double shellSeconds(const std::string& command) {
  const double before = childSeconds();
  if (std::system((command + " > /dev/null").c_str()) != 0)
    std::fprintf(stderr, "warning: '%s' failed\n", command.c_str());
  return childSeconds() - before;
}

void append(std::string& line, uint64_t v) {
  char digits[24];
  line.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
  line += ':';
}

// Per task, in a loop: compute (state 1 + counters), MPI_Send or MPI_Recv (event, state,
// communication record), and a user function enter/exit: roughly Extrae's mix.
void synthesize(const std::string& prv, uint64_t records) {
  paraver::OutputFile out(prv, prv.ends_with(".gz"));
  std::string header = "#Paraver (01/01/2026 at 00:00):" + std::to_string(records * 10) + "_ns:1(" +
                       std::to_string(kTasks) + "):1:" + std::to_string(kTasks) + "(";
  for (uint32_t t = 0; t < kTasks; ++t) header += (t ? ",1:1" : "1:1");
  out.line(header + ")");
  std::string line;
  uint64_t written = 0;
  for (uint64_t step = 0; written < records; ++step) {
    const uint32_t task = static_cast<uint32_t>(step % kTasks) + 1;
    const uint64_t t = step * 10;
    const std::string place = std::to_string(task) + ":1:" + std::to_string(task) + ":1:";
    switch (step % 5) {
      case 0:
        line = "1:" + place, append(line, t), append(line, t + 10), line += "1";
        break;
      case 1:
        line = "2:" + place, append(line, t), line += "42000050:", append(line, step * 7 % 100000),
        line += "42000059:", append(line, step % 9999), line.pop_back();
        break;
      case 2:
        line = "2:" + place, append(line, t), line += "50000001:", line += (task % 2 ? "1" : "2");
        break;
      case 3: {
        const uint32_t peer = task % kTasks + 1;
        line = "3:" + place, append(line, t), append(line, t + 2);
        line += std::to_string(peer) + ":1:" + std::to_string(peer) + ":1:";
        append(line, t + 1), append(line, t + 9), line += "4096:7";
        break;
      }
      default:
        line = "2:" + place, append(line, t), line += "50000001:0:60000019:";
        line += (step / kTasks % 2 ? "0" : "1");
    }
    out.line(line);
    ++written;
  }
  out.close();
  paraver::writeSmallFile(paraver::companionPath(prv, ".pcf"),
                          "EVENT_TYPE\n9 50000001 MPI Point-to-point\nVALUES\n0 End\n1 MPI_Send\n"
                          "2 MPI_Recv\n\nEVENT_TYPE\n0 60000019 User function\nVALUES\n0 End\n"
                          "1 compute\n\nEVENT_TYPE\n7 42000050 PAPI_TOT_INS\n7 42000059 "
                          "PAPI_TOT_CYC\n");
}

class CountingSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event& e) override {
    checksum += e.time + static_cast<uint16_t>(e.kind);
    ++events;
  }
  void end() override {}
  uint64_t checksum = 0, events = 0;
};

}  // namespace

struct ReadFigures {
  double seconds = 0;
  uint64_t events = 0;
};

ReadFigures timeRead(const std::string& prv) {
  ReadFigures figures;
  CountingSink sink;
  figures.seconds = secondsOf([&] {
    paraver::ParaverReader reader(prv, {});
    reader.read(sink);
  });
  figures.events = sink.events;
  return figures;
}

void printRead(const char* label, const ReadFigures& r, double baseline, const char* baseName,
               uint64_t records) {
  std::printf("%-22s %8.3f s  %6.2fx %-14s %6.2f M records/s  %6.2f M events/s\n", label, r.seconds,
              r.seconds / baseline, baseName, records / r.seconds / 1e6,
              r.events / r.seconds / 1e6);
}

// mtf_paraver_bench FILE.prv: only the read of an existing trace against `wc -l`.
int readExisting(const std::string& prv) {
  try {
    shellSeconds("cat '" + prv + "'");
    const double wc = shellSeconds("wc -l '" + prv + "'");
    paraver::ParaverReader reader(prv, {});
    CountingSink sink;
    const double seconds = secondsOf([&] { reader.read(sink); });
    uint64_t records = 0;
    for (const auto& [what, n] : reader.inputRecords())
      if (what.ends_with("records")) records += n;
    printRead("read .prv", {seconds, sink.events}, wc, "of wc -l", records);
    std::printf("%-22s %8.3f s\n", "wc -l (baseline)", wc);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && fs::is_regular_file(argv[1])) return readExisting(argv[1]);
  const uint64_t records = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const fs::path dir = (argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path()) /
                       ("mtf-paraver-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string prv = (dir / "big.prv").string(), gz = (dir / "big.prv.gz").string();
  try {
    synthesize(prv, records);
    synthesize(gz, records);
    std::printf("records: %llu, .prv %.1f MB, .prv.gz %.1f MB\n",
                static_cast<unsigned long long>(records), fs::file_size(prv) / 1e6,
                fs::file_size(gz) / 1e6);
    shellSeconds("cat '" + prv + "'");  // warm the page cache for both sides
    const double wc = shellSeconds("wc -l '" + prv + "'");
    const ReadFigures plain = timeRead(prv);
    printRead("read .prv", plain, wc, "of wc -l", records);
    std::printf("%-22s %8.3f s\n", "wc -l (baseline)", wc);
    const double zcat = shellSeconds("zcat '" + gz + "' | wc -l");
    printRead("read .prv.gz", timeRead(gz), zcat, "of zcat|wc -l", records);
    std::printf("%-22s %8.3f s\n", "zcat | wc -l (baseline)", zcat);
    const std::string out = (dir / "out.prv").string();
    const double write = secondsOf([&] {
      paraver::ParaverReader reader(prv, {});
      paraver::ParaverWriter writer(out, {});
      reader.read(writer);
    });
    const double cp = shellSeconds("cp '" + prv + "' '" + (dir / "copy.prv").string() + "'");
    std::printf("%-22s %8.3f s  %6.2fx of cp (read + sort + write; read alone %.2fx)\n",
                "read+write .prv", write, write / cp, plain.seconds / cp);
    std::printf("%-22s %8.3f s\n", "cp (baseline)", cp);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    fs::remove_all(dir);
    return 1;
  }
  fs::remove_all(dir);
  return 0;
}
