#include "cli/convert_window.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/common.hpp"
#include "cli/program_input.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::cli {

void addCutOptions(CLI::App& cmd, filter::CutRequest& request) {
  const char* group = "Cut (while streaming)";
  cmd.add_option("--begin", request.begin,
                 "Keep events from this time on: seconds (1.25, 1.25s), 800ms, 40us, 100ns,\n"
                 "ticks (123456t), or from the trace's start (+2.5s). Calls open at the cut\n"
                 "are entered again at its start and left at its end")
      ->group(group);
  cmd.add_option("--end", request.end, "Keep events before this time (the same forms)")
      ->group(group);
  cmd.add_flag("--shift-times", request.shiftTimes, "Times start at 0 at --begin")->group(group);
  cmd.add_option("--construct", request.construct,
                 "With --iterations: a loop of the program model (mtf model --positions)")
      ->group(group);
  cmd.add_option("--iterations", request.iterations,
                 "A-B: iterations A to B of --construct on every rank, cut by position")
      ->group(group);
}

ConvertCut prepareConvertCut(const filter::CutRequest& request, const std::string& input,
                             TraceSource& source, bool lenient) {
  ConvertCut cut;
  if (!request.any()) return cut;
  cut.plan = filter::planCut(
      request, source.definitions(), input, [&] { return readProgramModel(input, lenient).model; },
      [&] { return openInput(input, lenient); });
  cut.source = &source;
  return cut;
}

TraceSink& ConvertCut::into(TraceSink& out) {
  if (!plan.rule) return out;
  sink = std::make_unique<filter::CutSink>(out, std::move(plan.rule));
  if (auto* archive = dynamic_cast<mtfbin::ArchiveSource*>(source); archive && plan.window)
    archive->restrictToWindow(plan.window->from, plan.window->to, *sink);  // reads less
  return *sink;
}

void reportCut(const ConvertCut& cut, const std::string& output) {
  if (!cut.sink) return;
  const LossReport losses = cut.sink->losses();
  if (losses.empty()) return;
  std::cerr << "mtf: " << output << ": cut off by " << cut.plan.description << ":\n";
  for (const auto& [what, n] : losses) std::cerr << "  " << n << " " << what << '\n';
}

}  // namespace mtf::cli
