// mtf loops TRACE: Nested Loop Recognition per location, printed as the loop program of
// the loop-nest paper's Figure 3 (or as JSON, or as statistics).
#include <cstdio>
#include <iostream>
#include <optional>

#include "api/stored_loops.hpp"
#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/loops_options.hpp"
#include "nlr/loop_print.hpp"
#include "nlr/nlr_sink.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace mtf::cli {
namespace {

// Stored loops were made with every event in trace order and default NLR options; they
// answer only when the user asked for nothing else.
bool storedLoopsAnswer(const LoopsOptions& o, const CLI::App& cmd) {
  for (const char* option :
       {"--window", "--min-reps", "--signature", "--ignore-size", "--events", "--exact-order"})
    if (cmd.count(option) > 0) return false;
  return !o.recompute;
}

// Ticks a progress line while forwarding events to the NLR sink.
class ProgressSink : public TraceSink {
 public:
  ProgressSink(TraceSink& inner, bool enabled) : inner_(inner), progress_("loops", enabled) {}
  void begin(const Definitions& d) override { inner_.begin(d); }
  void event(const Event& e) override {
    inner_.event(e);
    progress_.tick(++events_);
  }
  void events(const SharedEventBatch& batch) override {
    inner_.events(batch);
    progress_.advance(events_, events_ + batch->size);
    events_ += batch->size;
  }
  // NLR works on each location apart: batches let the OTF2 reader read on two lanes
  // while NLR runs on the events already read (1.9x faster on two cores: 0.43 s, not
  // 0.83 s, on the 14 M-event wavefront).
  bool prefersBatches() const override { return true; }
  void end() override {
    inner_.end();
    progress_.finish();
  }

 private:
  TraceSink& inner_;
  Progress progress_;
  uint64_t events_ = 0;
};

// Says where the nests come from: the archive, or recomputed for the locations whose nest
// the writer left out (it did not summarise their events).
void reportStored(const std::string& trace, const api_impl::StoredLoops& stored) {
  std::fprintf(stderr, "mtf: loops stored in %s (every event)", trace.c_str());
  if (stored.recomputedLocations > 0)
    std::fprintf(stderr,
                 "; %zu of %zu locations' nests recomputed (not stored: they did not summarise "
                 "their events)",
                 stored.recomputedLocations, stored.loops.size());
  std::fputc('\n', stderr);
}

void runLoops(const LoopsOptions& o, const GlobalOptions& global, bool mayUseStored) {
  const nlr::SignatureOptions signatures = signatureOptions(o);
  if (mayUseStored) {
    if (const auto stored = api_impl::storedLoops(o.trace, o.location)) {
      if (!global.quiet) reportStored(o.trace, *stored);
      printLoops(o, stored->loops, nlr::EventNamer(stored->defs, {}));
      return;
    }
  }
  auto source = openInput(o.trace, o.lenient);
  nlr::NlrSink sink({o.window, o.minReps}, signatures, o.location);
  ProgressSink progress(sink, !global.quiet && stderrIsTerminal());
  source->read(progress);
  printLoops(o, sink.results(), nlr::EventNamer(sink.definitions(), {signatures.fields}));
}

void setupLoops(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<LoopsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "loops",
      "Find the loop nests of each location's events (Nested Loop Recognition) and print\n"
      "them as a loop program: 'for i0 = 1 to 249' ... 'done', one event per line such as\n"
      "'0 send 1 tag2' (sender send receiver), '1 recv 0 tag1' (sender recv receiver),\n"
      "'0 sync MPI_Allreduce 0-15'. Partners are compared relative to the own rank.\n"
      "On an MTF file with stored loops (every event, trace order) these are printed\n"
      "unless a recognition option or --recompute is given.");
  addLoopsOptions(cmd, *opts);
  cmd->add_flag("--recompute", opts->recompute,
                "On an MTF file, run NLR again instead of printing the stored loops");
  cmd->callback([opts, &global, cmd] { runLoops(*opts, global, storedLoopsAnswer(*opts, *cmd)); });
}

MTF_COMMAND(60, "loops", setupLoops);

}  // namespace
}  // namespace mtf::cli
