// mtf-mpi convert IN -o OUT.mtf: `mtf convert` to the MTF archive on MPI processes. Each
// process compacts its share of the locations (share.hpp) and runs NLR on it, as the
// archive writer does; the structures and program models are merged up a reduction tree
// and the archive written in parallel (parallel_archive.hpp).
#include <malloc.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>

#include "converters/mtf/binary/analysed_writer.hpp"
#include "converters/mtf/binary/stored_analyses.hpp"
#include "mpi/column_spool.hpp"
#include "mpi/commands.hpp"
#include "mpi/interrupt_watch.hpp"
#include "mpi/parallel_archive.hpp"
#include "mpi/parallel_model.hpp"
#include "mpi/phases.hpp"
#include "mpi/share.hpp"
#include "nlr/loop_annotation.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/safe_output.hpp"
#include "util/staging_owner.hpp"

namespace mtf::mpi {

namespace fs = std::filesystem;

namespace {

// Removes a process's scratch file whatever happens.
struct ScratchFile {
  fs::path path;
  ~ScratchFile() {
    std::error_code ignored;
    if (!path.empty()) fs::remove(path, ignored);
  }
};

// `work`, its errors naming the user's output instead of the staging directory's files
// (the archive being written, a process's spool): the message is then also the same on
// every process, and rank 0 prints it once.
std::function<void()> namingTheOutput(const fs::path& stagingDir, const std::string& output,
                                      std::function<void()> work) {
  return [stagingDir, output, work] {
    try {
      work();
    } catch (const Error& e) {
      std::string message = e.what();
      const std::string dir = stagingDir.string();
      for (size_t at; (at = message.find(dir)) != std::string::npos;)
        message.replace(at, message.find_first_of(": \n", at + dir.size()) - at, output);
      throw Error(e.code(), message);
    }
  };
}

// One process's share: compaction into the spool, loop nests and the program model's NLR
// beside it on threads of their own. With loops, the model's nests derive from the loops'
// symbols on the loops' thread (nlr/communication_stream.hpp), as `mtf convert` does.
class LocalConversion {
 public:
  LocalConversion(const ConvertArgs& a, World& world, const fs::path& spool)
      : queued_(std::max<size_t>(4, mtfbin::kQueuedBatches / world.size())),
        spool_(spool, shareOptions(world.size())),
        loops_(a.loops ? std::make_unique<nlr::LoopAnnotationSink>(nullptr, a.model) : nullptr),
        model_(a.model && !a.loops ? std::make_unique<nlr::NlrSink>(
                                         nlr::NlrOptions{}, program::modelSignatureOptions())
                                   : nullptr),
        withModel_(a.model) {}

  void run(ShareInput& share) {
    auto compaction = std::make_unique<mtfbin::BackgroundSink>(spool_, 4096, queued_);
    mtfbin::BatchingSink sink(std::make_unique<mtfbin::WriterWithAnalyses>(
        std::move(compaction), std::vector<TraceSink*>{loops_.get(), model_.get()}, queued_));
    InterruptibleSink interruptible(sink, false);
    readShare(share, interruptible);
    for (const compaction::LocationModel& l : spool_.model().locations) events_ += l.eventCount;
    if (loops_) mtfbin::attachLoopNests(*loops_, spool_.model());
    if (withModel_) modelResults_ = model_ ? model_->results() : loops_->communicationLoops();
    // The analyses' working state goes before the merge, which needs memory of its own.
    loops_.reset();
    model_.reset();
    malloc_trim(0);  // hand what they held back to the system: the merge starts lower
  }
  ColumnSpool& spool() { return spool_; }
  std::vector<nlr::LocationLoops> takeModelResults() { return std::move(modelResults_); }
  bool withModel() const { return withModel_; }
  uint64_t events() const { return events_; }

 private:
  // Batches queued in front of each thread: the serial depth shared out too (the events
  // in flight are the largest fixed part of a process's memory), at least 4.
  size_t queued_;
  ColumnSpool spool_;
  std::unique_ptr<nlr::LoopAnnotationSink> loops_;
  std::unique_ptr<nlr::NlrSink> model_;  // the model's NLR without loops_
  bool withModel_;
  std::vector<nlr::LocationLoops> modelResults_;
  uint64_t events_ = 0;
};

// The reader's losses of every process, summed on rank 0 (as `mtf convert` reports them).
void reportLosses(World& world, const LossReport& mine, const std::string& output) {
  std::string lines;
  for (const auto& [what, n] : mine) lines += std::to_string(n) + "\t" + what + "\n";
  LossReport all;
  for (const std::string& part : world.gather(lines)) {
    for (size_t at = 0; at < part.size();) {
      const size_t tab = part.find('\t', at), end = part.find('\n', at);
      all[part.substr(tab + 1, end - tab - 1)] += std::stoull(part.substr(at, tab - at));
      at = end + 1;
    }
  }
  if (all.empty()) return;
  std::cerr << "mtf-mpi: " << output << ": the output format cannot hold everything; dropped:\n";
  for (const auto& [what, n] : all) std::cerr << "  " << n << " " << what << "\n";
}

// --report: each process's phases (wall milliseconds), CPU time (all its threads), peak
// memory and bytes sent, printed by rank 0 one line per process, for bench/mpi.
class PhaseReport {
 public:
  void mark() { marks_.push_back(std::chrono::steady_clock::now()); }
  void print(World& world) const {
    std::string line = "process=" + std::to_string(world.rank());
    const char* names[] = {"local_ms", "merge_ms", "write_ms"};
    for (size_t i = 1; i < marks_.size() && i <= 3; ++i)
      line += " " + std::string(names[i - 1]) + "=" +
              std::to_string(
                  std::chrono::duration_cast<std::chrono::milliseconds>(marks_[i] - marks_[i - 1])
                      .count());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval& t) { return int64_t{t.tv_sec} * 1000 + t.tv_usec / 1000; };
    line += " cpu_ms=" + std::to_string(ms(usage.ru_utime) + ms(usage.ru_stime));
    line += " peak_kb=" + std::to_string(usage.ru_maxrss);
    line += " sent_bytes=" + std::to_string(world.bytesSent());
    for (const std::string& l : world.gather(line)) std::cerr << "mtf-mpi: report: " << l << '\n';
  }

 private:
  std::vector<std::chrono::steady_clock::time_point> marks_;
};

// For the tests of the collective phases' error path: MTF_MPI_FAULT=R makes process R fail
// at the start of the merge, as an I/O error there would.
void injectedFault(World& world) {
  const char* fault = std::getenv("MTF_MPI_FAULT");
  if (fault && std::to_string(world.rank()) == fault)
    throw IoError("mtf-mpi", "process " + std::string(fault) + ": fault injected (MTF_MPI_FAULT)");
}

// Merges the processes' results and writes the archive at `staging`. A write error
// (disk full) is one of a local phase: every process reaches the end of the write.
int mergeAndWrite(World& world, LocalConversion& local, const Definitions& defs,
                  const ConvertArgs& a, const fs::path& staging, const fs::path& spool,
                  PhaseReport& report) {
  compaction::CompactModel merged;
  program::ProgramModel model;
  collectivePhase(world, [&] {
    injectedFault(world);
    merged = reduceStructure(world, local.spool().takeModel(), defs);
    if (local.withModel()) model = reduceProgramModel(world, local.takeModelResults(), defs);
  });
  report.mark();
  if (world.isRoot() && a.loops) mtfbin::markLeftOutLoopNests(merged);
  if (world.isRoot() && local.withModel()) {
    const std::string blob = program::encodeProgramModel(model);
    if (mtfbin::storesProgramModel(blob.size(), merged))
      merged.annotations.push_back({program::kModelAnnotationName, {blob.begin(), blob.end()}});
  }
  ScratchFile tail{world.isRoot() ? staging.parent_path() / ".mtf-mpi-tail" : fs::path()};
  ArchiveWrite written;
  collectivePhase(world, [&] {
    const SpoolPart part{spool, local.spool().bytes(), std::move(local.spool().entries())};
    written = writeParallelArchive(world, staging, part, merged, tail.path);
  });
  const int code = localPhase(world, namingTheOutput(staging.parent_path(), a.output, [&] {
                                if (written.failure) std::rethrow_exception(written.failure);
                              }));
  report.mark();
  return code;
}

// What the watcher removes (interrupt_watch.hpp): this process's spool and record; on
// rank 0 the whole staging directory, a commit cut short undone first.
std::string cleanupAfterInterrupt(const fs::path& stagingDir, const fs::path& spool, int rank,
                                  int processes, const std::string& output) {
  std::error_code ignored;
  fs::remove(spool, ignored);
  fs::remove(stagingDir / (".mtf-mpi-process." + std::to_string(rank)), ignored);
  if (rank != 0) return "";
  // Past the commit point the output is whole: too late to undo (safe_output.hpp).
  if (staging::commitFinished(stagingDir)) return "interrupted after " + output + " was complete";
  const std::string line = kInterruptedMessage + deadProcesses(stagingDir, processes);
  staging::rollBack(stagingDir, stagingDir.parent_path());
  // The other processes are removing their spools and records at the same moment.
  staging::removeTree(stagingDir);
  return line;
}

// Everything after the staging directory exists on every process.
int convertInto(World& world, const ConvertArgs& a, const fs::path& staging, SafeOutput* out) {
  const fs::path stagingDir = staging.parent_path();
  ProcessRecord record(stagingDir, world.rank());
  ScratchFile spool{stagingDir / (".mtf-mpi-columns." + std::to_string(world.rank()))};
  setInterruptCleanup(
      [stagingDir, spool = spool.path, rank = world.rank(), n = world.size(), output = a.output] {
        return cleanupAfterInterrupt(stagingDir, spool, rank, n, output);
      });
  std::unique_ptr<LocalConversion> local;
  ShareInput share;
  PhaseReport report;
  report.mark();
  int code = localPhase(world, namingTheOutput(stagingDir, a.output, [&] {
                          share = openShare(a.input, a.lenient, world.rank(), world.size());
                          local = std::make_unique<LocalConversion>(a, world, spool.path);
                          local->run(share);
                        }));
  if (code != 0) return code;
  const Definitions& defs = share.source->definitions();
  report.mark();
  code = mergeAndWrite(world, *local, defs, a, staging, spool.path, report);
  if (code != 0) return code;
  if (a.report) report.print(world);
  const uint64_t events = world.sum(local->events());
  reportLosses(world, share.source->unmodelled(), a.output);
  std::error_code ignored;
  fs::remove(spool.path, ignored);
  record.remove();
  world.barrier();  // every spool removed: the staging directory holds the archive only
  if (world.isRoot()) {
    out->commit();
    if (!a.quiet)
      std::cerr << "mtf-mpi: converted " << a.input << " (" << defs.info.format << ") -> "
                << a.output << " (mtf): " << events << " events, " << world.size()
                << " processes\n";
  }
  return 0;
}

}  // namespace

int runConvert(World& world, const ConvertArgs& a) {
  watchInterrupts(world.isRoot());
  std::unique_ptr<SafeOutput> out;
  std::string staging;
  int code = localPhase(world, [&] {
    if (!world.isRoot()) return;
    if (fs::path(a.output).extension() != ".mtf")
      throw UsageError(a.output + ": mtf-mpi writes MTF archives; name the output *.mtf");
    if (samePath(a.input, a.output)) throw UsageError(a.output + ": the output is the input");
    out = std::make_unique<SafeOutput>(a.output, a.force, "mtf-mpi");
    staging = out->stagingPath().string();
  });
  if (code != 0) return code;
  world.broadcast(staging);
  const fs::path stagingDir = fs::path(staging).parent_path();
  // An error in a collective phase ends every process at once: the one that meets it
  // removes the staging directory (the archive being written and every spool).
  world.setAbortCleanup([stagingDir] { staging::removeTree(stagingDir); });
  try {
    return convertInto(world, a, staging, out.get());
  } catch (const Interrupted& e) {
    // This process's spool and record went while unwinding; a record left is a process
    // that died without cleaning up.
    if (!claimInterruptedExit()) waitForTheWatcher();
    const std::string line =
        world.isRoot() ? kInterruptedMessage + deadProcesses(stagingDir, world.size()) : "";
    out.reset();
    endInterrupted(e.signal(), world.isRoot(), line);
  }
}

}  // namespace mtf::mpi
