// mtf loops TRACE: Nested Loop Recognition per location, printed as the loop program of
// the loop-nest paper's Figure 3 (or as JSON, or as statistics).
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "nlr/loop_print.hpp"
#include "nlr/nlr_sink.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace mtf::cli {
namespace {

struct LoopsOptions {
  std::string trace;
  std::optional<uint64_t> location;
  bool json = false;
  bool stats = false;
  bool lenient = false;
  size_t window = nlr::NlrOptions{}.window;
  unsigned minReps = nlr::NlrOptions{}.minReps;
  std::string signature = "all";
  bool ignoreSize = false;
  std::string events = "mpi";
  bool exactOrder = false;
};

// Ticks a progress line while forwarding events to the NLR sink.
class ProgressSink : public TraceSink {
 public:
  ProgressSink(TraceSink& inner, bool enabled) : inner_(inner), progress_("loops", enabled) {}
  void begin(const Definitions& d) override { inner_.begin(d); }
  void event(const Event& e) override {
    inner_.event(e);
    progress_.tick(++events_);
  }
  void end() override {
    inner_.end();
    progress_.finish();
  }

 private:
  TraceSink& inner_;
  Progress progress_;
  uint64_t events_ = 0;
};

nlr::SignatureOptions signatureOptions(const LoopsOptions& o) {
  nlr::SignatureOptions s;
  s.fields = nlr::parseSignatureFields(o.signature);
  if (o.ignoreSize) s.fields &= ~nlr::kFieldSize;
  s.canonicalCallOrder = !o.exactOrder;
  if (o.events == "mpi")
    s.selection = nlr::EventSelection::Communication;
  else if (o.events == "all")
    s.selection = nlr::EventSelection::All;
  else
    throw UsageError("--events: expected 'mpi' or 'all', not '" + o.events + "'");
  return s;
}

void runLoops(const LoopsOptions& o, const GlobalOptions& global) {
  if (o.minReps < 2) throw UsageError("--min-reps must be at least 2");
  if (o.window < o.minReps) throw UsageError("--window must be at least --min-reps");
  const nlr::SignatureOptions signatures = signatureOptions(o);
  auto source = openInput(o.trace, o.lenient);
  nlr::NlrSink sink({o.window, o.minReps}, signatures, o.location);
  ProgressSink progress(sink, !global.quiet && stderrIsTerminal());
  source->read(progress);
  const std::vector<nlr::LocationLoops> all = sink.results();
  if (o.location && all.empty())
    throw InputError(o.trace, placeLocation(*o.location), "no events at this location");
  std::ios::sync_with_stdio(false);
  const nlr::EventNamer namer(sink.definitions(), {signatures.fields});
  if (o.json) {
    nlr::printLoopsJson(std::cout, all, namer);
  } else if (o.stats) {
    nlr::printLoopStats(std::cout, all);
  } else {
    for (size_t i = 0; i < all.size(); ++i) {
      if (i) std::cout << '\n';
      nlr::printLoopProgram(std::cout, all[i], namer);
    }
  }
  std::cout.flush();
  if (!std::cout) throw IoError("<stdout>", "write failed");
}

void setupLoops(CLI::App& app, const GlobalOptions& global) {
  auto opts = std::make_shared<LoopsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "loops",
      "Find the loop nests of each location's events (Nested Loop Recognition) and print\n"
      "them as a loop program: 'for i0 = 1 to 249' ... 'done', one event per line such as\n"
      "'0 send 1 tag2' (sender send receiver), '1 recv 0 tag1' (sender recv receiver),\n"
      "'0 sync MPI_Allreduce 0-15'. Partners are compared relative to the own rank.");
  cmd->add_option("TRACE", opts->trace, "Trace to analyse (any readable format)")->required();
  cmd->add_option("--location", opts->location, "Only this location (id)");
  cmd->add_flag("--json", opts->json, "The same loop trees as JSON");
  cmd->add_flag("--stats", opts->stats, "Events in and elements of the model, per location");
  cmd->add_option("--window", opts->window, "Elements NLR keeps for recognition")
      ->capture_default_str();
  cmd->add_option("--min-reps", opts->minReps, "Copies of a sequence that make a loop")
      ->capture_default_str();
  cmd->add_option("--signature", opts->signature,
                  "Fields compared besides the kind: region,partner,tag,comm,size,ident or all")
      ->capture_default_str();
  cmd->add_flag("--ignore-size", opts->ignoreSize, "Message sizes do not count");
  cmd->add_option("--events", opts->events,
                  "mpi: MPI messages and collectives only (Figure 3); all: every event, MPI\n"
                  "calls as Enter, event, Leave")
      ->capture_default_str();
  cmd->add_flag("--exact-order", opts->exactOrder,
                "Keep the trace's order of the events inside one MPI call (by default they are\n"
                "sorted: the order in which MPI_Waitall completes requests is timing)");
  cmd->add_flag("--lenient", opts->lenient, "Skip bad records instead of failing");
  cmd->callback([opts, &global] { runLoops(*opts, global); });
}

MTF_COMMAND(60, "loops", setupLoops);

}  // namespace
}  // namespace mtf::cli
