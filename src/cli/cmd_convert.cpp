// mtf convert IN -o OUT [--to FORMAT]: any readable format to any writable one, never
// losing anything silently: what the output format cannot hold is reported (or, with
// --strict, the conversion is refused and nothing is written).
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "cli/common.hpp"
#include "cli/convert_window.hpp"
#include "cli/selection_options.hpp"
#include "filter/selection_sink.hpp"
#include "model/nesting_check.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"
#include "util/progress.hpp"
#include "util/safe_output.hpp"

namespace mtf::cli {
namespace {

struct ConvertOptions {
  std::string input;
  std::string output;
  std::string to;
  bool force = false;
  bool lenient = false;
  WriteOptions write;
  bool noLoops = false;
  bool noModel = false;
  filter::SelectionOptions select;  // issue 31: --ranks, --locations, --regions, --kinds
  filter::CutRequest cut;           // --begin/--end/--shift-times, --construct/--iterations
};

const FormatEntry& outputFormat(const ConvertOptions& o) {
  if (o.to.empty()) return formatForOutput(o.output);
  const FormatEntry* f = formatByName(o.to);
  if (!f || !f->openWriter) {
    std::string known;
    for (const FormatEntry& e : formats())
      if (e.openWriter) known += (known.empty() ? "" : ", ") + e.name;
    throw UsageError("--to " + o.to + ": no such output format (known: " + known + ")");
  }
  return *f;
}

void reportLosses(const LossReport& losses, bool strict, const std::string& output) {
  if (losses.empty()) return;
  std::string text;
  for (const auto& [what, n] : losses) text += "  " + std::to_string(n) + " " + what + "\n";
  if (strict)
    throw InputError(
        output, "",
        "--strict: the output format cannot hold everything:\n" + text + "nothing was written");
  std::cerr << "mtf: " << output << ": the output format cannot hold everything; dropped:\n"
            << text;
}

// An unbalanced enter/leave nesting is carried over unchanged (every format mtf writes can
// hold it); the user is told, since other tools may refuse or misread such a trace. Calls
// never left are not worth telling where every file of the format the events were recorded
// in may have them (FormatEntry::callsOpenAtEndAreNormal: Paraver).
void warnUnbalanced(const NestingCheck& nesting, bool openAtEndIsNormal, const std::string& input) {
  const NestingSummary& n = nesting.summary();
  const bool openCalls = n.callsNeverLeft != 0 && !openAtEndIsNormal;
  if (n.unmatchedLeaves == 0 && n.mismatchedLeaves == 0 && !openCalls) return;
  std::cerr << "mtf: warning: " << input << ": unbalanced enter/leave nesting, kept as it is:\n";
  for (const std::string& line : nesting.describe(10, !openAtEndIsNormal))
    std::cerr << "  " << line << '\n';
}

// What convert itself needs of the events: how many (for the last line and the progress),
// and their enter/leave nesting, unless the writer follows it anyway (FormatEntry::
// checksNesting: the .mtf writer's compaction), which then fills `nesting` instead. Runs
// on the reading threads, so it does nothing else per event. Then hands every event on to
// the writer (behind its interrupt checks): one sink in front of the other rather than a
// TeeSink of both, one virtual call per event fewer (about 3% of a TAU conversion).
class ConvertCounter final : public TraceSink {
 public:
  ConvertCounter(Progress& progress, NestingCheck* nesting, InterruptibleSink& next)
      : progress_(progress), nesting_(nesting), next_(next) {}
  void begin(const Definitions& defs) override { next_.begin(defs); }
  void event(const Event& e) override {
    next_.event(e);
    if (nesting_) nesting_->NestingCheck::event(e);  // direct call: no second dispatch
    progress_.tick(++total_);
  }
  void events(const SharedEventBatch& batch) override {
    next_.events(batch);
    if (nesting_) {
      const Event* e = batch->events.data();
      for (size_t i = 0; i < batch->size; ++i) nesting_->NestingCheck::event(e[i]);
    }
    const uint64_t before = total_;
    total_ += batch->size;
    progress_.advance(before, total_);
  }
  bool prefersBatches() const override { return next_.prefersBatches(); }
  bool takeTimeOrder() override { return next_.takeTimeOrder(); }
  void end() override {
    next_.end();
    if (nesting_) nesting_->end();
  }
  uint64_t total() const { return total_; }

 private:
  Progress& progress_;
  NestingCheck* nesting_;  // null: the writer checks the nesting
  InterruptibleSink& next_;
  uint64_t total_ = 0;
};

// --- Selection (issue 31, part B): ranks, locations, regions, event kinds ---------------

// Resolved before anything is written (a bad selection leaves no output); an input that
// can skip the unselected locations' events (OTF2, TAU, MTF) is told to.
filter::Selection prepareSelection(const ConvertOptions& o, TraceSource& source) {
  filter::Selection selection = filter::resolveSelection(o.select, source.definitions(), o.input);
  if (selection.locations) source.restrictToLocations(selection.locationList(source.definitions()));
  return selection;
}

// What the selection lost (message halves whose partner it dropped, roots it did not
// keep) is reported like a writer's losses, but is not the output format's fault:
// --strict does not refuse it.
void reportSelection(const filter::SelectionSink& select, const ConvertOptions& o, bool quiet) {
  if (!quiet)
    std::cerr << "mtf: selection: kept " << select.eventsKept() << " of " << select.eventsSeen()
              << " events read from " << o.input << '\n';
  const LossReport lost = select.losses();
  if (lost.empty()) return;
  std::cerr << "mtf: " << o.output << ": the selection lost:\n";
  for (const auto& [what, n] : lost) std::cerr << "  " << n << " " << what << '\n';
}

// The chain the input streams into when it is both selected and cut: the selection
// comes first and the cut cuts the selected trace. So the cut matches messages among the
// kept ranks only, numbered as written (a message to a rank not selected is the
// selection's loss, not one cut off), and sees calls the selection balanced. An
// iteration cut goes by positions in the input's streams, counted before the selection
// thins them out. An .mtf input then reads the events before a window too: the
// selection matches sends to receives from the start (it reads only the kept locations).
class SelectThenCut {
 public:
  SelectThenCut(TraceSink& out, ConvertCut& cut, const filter::Selection& selection, bool selects) {
    if (!selects) {
      head_ = &cut.into(out);
      return;
    }
    cut.source = nullptr;  // no .mtf window: the selection sees the whole of each location
    select_.emplace(cut.into(out), selection);
    head_ = &*select_;
    if (!cut.sink) return;
    positions_.emplace(*select_);
    cut.sink->countPositionsBy(*positions_);
    head_ = &*positions_;
  }
  TraceSink& head() { return *head_; }
  const filter::SelectionSink* selection() const { return select_ ? &*select_ : nullptr; }

 private:
  std::optional<filter::SelectionSink> select_;
  std::optional<filter::StreamPositions> positions_;
  TraceSink* head_ = nullptr;
};

// --- end of the selection ---------------------------------------------------------------

// A writer's errors name the file it writes, inside the staging directory; the user knows
// the output by the name they gave.
void readNamingTheTarget(TraceSource& source, TraceSink& sink, const std::string& staging,
                         const std::string& target) {
  try {
    source.read(sink);
  } catch (const Error& e) {
    std::string message = e.what();
    for (size_t at; (at = message.find(staging)) != std::string::npos;)
      message.replace(at, staging.size(), target);
    throw Error(e.code(), message);
  }
}

void runConvert(ConvertOptions o, const GlobalOptions& g) {
  o.write.loops = !o.noLoops;
  o.write.model = !o.noModel;
  if (samePath(o.input, o.output)) throw UsageError(o.output + ": the output is the input");
  auto source = openInput(o.input, o.lenient, o.write.strict);
  const std::string inFormat = source->definitions().info.format;
  // The format the events were recorded in: the input's, or the one an archive was made from.
  const FormatEntry* recordedIn = formatByName(inFormat);
  const filter::Selection selection = prepareSelection(o, *source);
  const FormatEntry& format = outputFormat(o);
  ConvertCut cut = prepareConvertCut(o.cut, o.input, *source, o.lenient);
  catchInterrupts();
  SafeOutput out(o.output, o.force);
  NestingCheck nesting;
  if (format.checksNesting) o.write.nesting = &nesting;
  auto writer = format.openWriter(out.stagingPath(), o.write);
  Progress progress("converting " + o.input, !g.quiet && stderrIsTerminal());
  InterruptibleSink interruptible(*writer);
  ConvertCounter counter(progress, format.checksNesting ? nullptr : &nesting, interruptible);
  SelectThenCut chain(counter, cut, selection, o.select.any());
  readNamingTheTarget(*source, chain.head(), out.stagingPath().string(), o.output);
  progress.finish();
  warnUnbalanced(nesting, recordedIn && recordedIn->callsOpenAtEndAreNormal, o.input);
  LossReport losses = source->unmodelled();
  mergeLosses(losses, writer->losses());
  reportLosses(losses, o.write.strict, o.output);
  reportCut(cut, o.output);
  writer.reset();  // close every file before moving them into place
  out.commit();
  if (o.select.any()) reportSelection(*chain.selection(), o, g.quiet);
  if (!g.quiet)
    std::cerr << "mtf: converted " << o.input << " (" << inFormat << ") -> " << o.output << " ("
              << format.name << "): " << counter.total() << " events"
              << (cut.sink ? ", " + cut.plan.description : "") << '\n';
}

void setupConvert(CLI::App& app, const GlobalOptions& global) {
  auto o = std::make_shared<ConvertOptions>();
  CLI::App* cmd = app.add_subcommand(
      "convert",
      "Convert a trace. The input format is found by content; the output format by the\n"
      "output's name (.otf2, .prv, .prv.gz, .mtf, .mtf.xml, .json, .json.gz) or --to.");
  cmd->add_option("INPUT", o->input, "Input trace")->required();
  cmd->add_option("-o,--output", o->output, "Output path")->required();
  cmd->add_option("--to", o->to,
                  "Output format by name (otf2, paraver, tau, mtf, mtf-xml, chrome)");
  cmd->add_flag("--strict", o->write.strict,
                "Refuse (exit 2, nothing written) if the output format cannot hold everything,\n"
                "or the input has records its own tool reads but mtf would skip");
  cmd->add_flag("--force", o->force, "Replace an existing output");
  cmd->add_flag("--lenient", o->lenient, "Skip bad input records (reported) instead of failing");
  cmd->add_flag("--compress", o->write.compress,
                "Compress where the format allows (Paraver .prv.gz, Chrome .json.gz)");
  cmd->add_flag("--merged", o->write.merged, "TAU: write one merged tau.trc + tau.edf");
  cmd->add_flag("--structure-only", o->write.structureOnly, "MTF XML: leave the value arrays out");
  cmd->add_flag("--patterns", o->write.patterns, "MTF: detect and store communication patterns");
  cmd->add_flag("--no-model", o->noModel,
                "MTF: do not store the program-wide model (mtf model then builds it again)");
  cmd->add_flag("--no-loops", o->noLoops, "MTF: do not store loop nests");
  addSelectionOptions(*cmd, o->select);
  addCutOptions(*cmd, o->cut);
  cmd->callback([o, &global] { runConvert(*o, global); });
}

MTF_COMMAND(30, "convert", setupConvert);

}  // namespace
}  // namespace mtf::cli
