// mtf-gen: writes traces of MPI kernels with a known structure, for tests and benchmarks.
// The output format comes from the registry (by the output's name or --to), so every
// format whose writer is registered can be generated; "--to text" (or a .txt name)
// writes the canonical text dump instead.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <memory>
#include <new>

#include "gen/generator.hpp"
#include "model/text_dump.hpp"
#include "registry/registry.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/progress.hpp"
#include "util/safe_output.hpp"

namespace {

using namespace mtf;
using mtf::gen::GenOptions;
using mtf::gen::Kernel;

struct OutputOptions {
  std::string path;
  std::string format;
  bool force = false;
  bool quiet = false;
};

// Counts events for the progress display, then passes them on.
class ProgressSink : public TraceSink {
 public:
  ProgressSink(TraceSink& next, Progress& progress) : next_(next), progress_(progress) {}
  void begin(const Definitions& d) override { next_.begin(d); }
  void event(const Event& e) override {
    next_.event(e);
    progress_.tick(++count_);
  }
  void end() override { next_.end(); }
  LossReport losses() const override { return next_.losses(); }

 private:
  TraceSink& next_;
  Progress& progress_;
  uint64_t count_ = 0;
};

// The canonical text dump as an output "format".
class TextFileSink : public TraceSink {
 public:
  explicit TextFileSink(const std::filesystem::path& path)
      : path_(path), file_(path), dump_(file_) {
    if (!file_) throw IoError(path.string(), "cannot create the file");
  }
  void begin(const Definitions& d) override { dump_.begin(d); }
  void event(const Event& e) override { dump_.event(e); }
  void end() override {
    dump_.end();
    file_.flush();
    if (!file_) throw IoError(path_.string(), "write failed");
  }

 private:
  std::filesystem::path path_;
  std::ofstream file_;
  TextDumpSink dump_;
};

bool wantsText(const OutputOptions& out) {
  if (!out.format.empty()) return out.format == "text";
  return out.path.size() > 4 && out.path.compare(out.path.size() - 4, 4, ".txt") == 0;
}

std::unique_ptr<TraceSink> openOutput(const OutputOptions& out, const std::filesystem::path& at) {
  if (wantsText(out)) return std::make_unique<TextFileSink>(at);
  const FormatEntry* format = nullptr;
  if (!out.format.empty()) {
    format = formatByName(out.format);
    if (!format || !format->openWriter)
      throw UsageError("--to " + out.format + ": no such output format");
  } else {
    format = &formatForOutput(out.path);
  }
  return format->openWriter(at, WriteOptions{});
}

void run(GenOptions options, const OutputOptions& out) {
  gen::resolveAndValidate(options);  // usage errors before anything touches the disk
  if (!wantsText(out) && !out.format.empty() && !formatByName(out.format))
    throw UsageError("--to " + out.format + ": no such output format");
  catchInterrupts();
  SafeOutput output(out.path, out.force, "mtf-gen");
  const std::unique_ptr<TraceSink> writer = openOutput(out, output.stagingPath());
  Progress progress("generating", !out.quiet && stderrIsTerminal());
  InterruptibleSink interruptible(*writer);
  ProgressSink counted(interruptible, progress);
  const uint64_t events = gen::generate(options, counted);
  progress.finish();
  output.commit();
  if (out.quiet) return;
  std::fprintf(stderr, "mtf-gen: %s, %u ranks: %llu events written to %s\n",
               std::string(gen::kernelName(options.kernel)).c_str(), options.ranks,
               static_cast<unsigned long long>(events), out.path.c_str());
  for (const auto& [what, count] : writer->losses())
    std::fprintf(stderr, "mtf-gen: the output format dropped %llu %s\n",
                 static_cast<unsigned long long>(count), what.c_str());
}

const char* kTimingHelp =
    "Times are integer ticks (--resolution per second). All ranks follow one sequence of "
    "global steps whose lengths are drawn from the seed; inside a step each rank draws its "
    "own compute length and jitter, messages are sent early in a step and received late in "
    "it or in a later step, so every receive completes after its send started (also with --noise: "
    "the steps leave room for the inserted calls). The same options and seed give a "
    "byte-identical trace. Ranks are written one after the other; memory does not grow "
    "with the trace.";

CLI::App* addKernel(CLI::App& app, Kernel kernel, const std::string& what, GenOptions& o,
                    OutputOptions& out) {
  const std::string name(gen::kernelName(kernel));
  CLI::App* sub = app.add_subcommand(name, what + "\n" + gen::eventCountFormula(kernel));
  sub->add_option("--ranks", o.ranks, "Number of MPI ranks (default 16)");
  sub->add_option("--iterations", o.iterations, "Outer iterations (default 10)");
  sub->add_option("--seed", o.seed, "Seed of every random choice (default 1)");
  sub->add_option("--noise", o.noise,
                  "Probability of an unrelated call (MPI_Iprobe, MPI_Comm_rank, log_progress, "
                  "check_convergence) after each call (default 0)");
  sub->add_option("--resolution", o.resolution, "Clock ticks per second (default 1e9)");
  sub->add_flag("--split-comms", o.splitComms,
                "Point-to-point messages on sub-communicators, the peer named by its rank in "
                "them: grid kernels use one per grid row (east/west) and column "
                "(north/south), the others one per pair of ranks that talk; collectives stay "
                "on MPI_COMM_WORLD, the event count is unchanged");
  sub->add_flag("--self-messages", o.selfMessages,
                "After the setup broadcast each rank sends itself one message (Irecv, Isend, "
                "Waitall) on MPI_COMM_SELF, defined over the COMM_SELF group as Score-P does: "
                "10 more events per rank");
  sub->add_option("-o,--output", out.path, "Output trace (its name picks the format)")->required();
  sub->add_option("--to", out.format, "Output format by name (otf2, paraver, tau, mtf, text...)");
  sub->add_flag("--force", out.force, "Replace an existing output");
  sub->add_flag("-q,--quiet", out.quiet, "No progress or summary on stderr");
  sub->callback([&o, kernel] { o.kernel = kernel; });
  return sub;
}

void addGridOption(CLI::App* sub, GenOptions& o) {
  sub->add_option_function<std::string>(
      "--grid",
      [&o](const std::string& text) {
        unsigned x = 0, y = 0;
        char sep = 0, extra = 0;
        if (std::sscanf(text.c_str(), "%u%c%u%c", &x, &sep, &y, &extra) != 3 ||
            (sep != 'x' && sep != 'X'))
          throw CLI::ValidationError("--grid", "expected PXxPY, e.g. 4x4");
        o.gridX = x;
        o.gridY = y;
      },
      "Rank grid PXxPY (columns x rows); default: as square as --ranks allows");
}

void addPauseOption(CLI::App* sub, GenOptions& o) {
  sub->add_option_function<std::string>(
      "--pause",
      [&o](const std::string& text) {
        unsigned iteration = 0;
        unsigned long long us = 0;
        char sep = 0, extra = 0;
        if (std::sscanf(text.c_str(), "%u%c%llu%c", &iteration, &sep, &us, &extra) != 3 ||
            sep != ':')
          throw CLI::ValidationError("--pause", "expected ITER:MICROSECONDS, e.g. 10:20000");
        o.pauseIteration = iteration;
        o.pauseUs = us;
      },
      "ITER:MICROSECONDS: before outer iteration ITER (from 0) every rank flushes its trace "
      "buffer for about MICROSECONDS (one BufferFlush event per rank; the flushes start "
      "within the pause's first tenth and end within its last tenth), like a tracer whose "
      "buffers fill up: one more event per rank");
}

// One subcommand per kernel, each with the options it uses.
void addKernels(CLI::App& app, GenOptions& options, OutputOptions& out) {
  CLI::App* wave = addKernel(
      app, Kernel::Wavefront,
      "2D LU-like wavefront: per iteration a forward sweep (receive from west and north, "
      "compute, send east and south; --inner steps pipelined over the grid), the mirrored "
      "backward sweep, a nonblocking boundary exchange with every neighbour and an "
      "allreduce.",
      options, out);
  addGridOption(wave, options);
  addPauseOption(wave, options);
  wave->add_option("--inner", options.inner, "Inner iterations of each sweep (default 8)");
  wave->add_option("--allreduce-every", options.allreduceEvery,
                   "An allreduce every K iterations (default 1)");
  addKernel(app, Kernel::Ring,
            "Ring: rank r sends to r+1 and receives from r-1 (even ranks send first), after "
            "a compute phase, every iteration.",
            options, out);
  addKernel(app, Kernel::Butterfly,
            "Butterfly: recursive-doubling allreduce by hand, log2(P) stages exchanging with "
            "rank XOR 2^s (Irecv, Isend, Waitall); P a power of two.",
            options, out);
  CLI::App* halo = addKernel(app, Kernel::Halo,
                             "Halo: compute, then a nonblocking exchange with the up to four "
                             "grid neighbours (Irecv, Isend, Waitall) every iteration.",
                             options, out);
  addGridOption(halo, options);
  addPauseOption(halo, options);
  addKernel(app, Kernel::MasterWorker,
            "Master/worker: rank 0 hands out --iterations tasks per worker; results come "
            "back in the order tasks of seeded random cost finish.",
            options, out);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "mtf-gen: traces of MPI kernels with a known structure (for tests and "
      "benchmarks).\nExit status: 0 success, 1 usage error, 3 I/O failure."};
  app.footer(kTimingHelp);
  app.require_subcommand(1);
  GenOptions options;
  OutputOptions out;
  addKernels(app, options, out);
  try {
    app.parse(argc, argv);
    run(options, out);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(ExitCode::Usage);
  } catch (const Interrupted& e) {
    std::fprintf(stderr, "mtf-gen: %s\n", kInterruptedMessage);
    return e.exitCode();
  } catch (const Error& e) {
    std::fprintf(stderr, "mtf-gen: %s\n", e.what());
    return static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "mtf-gen: out of memory\n");
    return static_cast<int>(ExitCode::IoFailure);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mtf-gen: %s\n", e.what());
    return static_cast<int>(ExitCode::IoFailure);
  }
  return 0;
}
