#include "filter/cut_request.hpp"

#include <algorithm>

#include "filter/iteration_cut.hpp"
#include "filter/time_spec.hpp"

namespace mtf::filter {

namespace {

// The trace's first tick and one past its last, when its definitions say (else 0, 0).
std::pair<Tick, Tick> traceSpan(const ClockProperties& clock) {
  if (clock.traceLength == 0) return {0, 0};
  return {clock.globalOffset, clock.globalOffset + clock.traceLength + 1};
}

std::string seconds(Tick t, uint64_t resolution) {
  std::string frac = std::to_string(t % resolution);
  const std::string digits = std::to_string(resolution - 1);
  frac.insert(0, digits.size() - std::min(digits.size(), frac.size()), '0');
  return std::to_string(t / resolution) + (resolution > 1 ? "." + frac : "") + "s";
}

void checkOptions(const CutRequest& r) {
  if (r.byTime() && r.byIterations())
    throw TimeSpecError("--begin/--end and --construct/--iterations: cut by one or the other");
  if (r.shiftTimes && !r.byTime()) throw TimeSpecError("--shift-times needs --begin or --end");
  if (r.byIterations() && (r.construct.empty() || r.iterations.empty()))
    throw TimeSpecError("--construct and --iterations go together");
}

}  // namespace

TimeWindow resolveWindow(const CutRequest& request, const ClockProperties& clock) {
  const auto [start, stop] = traceSpan(clock);
  const uint64_t resolution = clock.resolution ? clock.resolution : 1;
  TimeWindow w;
  w.shift = request.shiftTimes;
  // An open side keeps everything on that side, also events outside the declared span.
  w.from = request.begin.empty() ? 0
                                 : resolveTime(parseTimeSpec(request.begin, "--begin"), resolution,
                                               clock.globalOffset);
  w.to = request.end.empty()
             ? ~Tick{0}
             : resolveTime(parseTimeSpec(request.end, "--end"), resolution, clock.globalOffset);
  if (!request.begin.empty() && !request.end.empty() && w.from >= w.to)
    throw TimeSpecError("--begin " + request.begin + " is not before --end " + request.end);
  if (w.from >= w.to)
    throw TimeSpecError("the window [" + std::to_string(w.from) + ", " + std::to_string(w.to) +
                        ") ticks is empty");
  const std::string span =
      "the trace runs from " + seconds(start, resolution) + " to " + seconds(stop - 1, resolution);
  if (stop && w.from >= stop)
    throw TimeSpecError("--begin " + request.begin + " lies after the trace's end: " + span);
  if (stop && w.to <= start)
    throw TimeSpecError("--end " + request.end + " lies before the trace's start: " + span);
  return w;
}

CutPlan planCut(const CutRequest& request, const Definitions& defs, const std::string& trace,
                const ModelOf& model, const OpenSource& open) {
  checkOptions(request);
  CutPlan plan;
  if (request.byTime()) {
    plan.window = resolveWindow(request, defs.clock);
    plan.rule = std::make_unique<TimeWindowRule>(*plan.window);
    plan.description = "[" + std::to_string(plan.window->from) + ", " +
                       std::to_string(plan.window->to) + ") ticks";
    return plan;
  }
  const IterationRange range = parseIterations(request.iterations, "--iterations");
  IterationBounds bounds(iterationPositions(model(), request.construct, range));
  open()->read(bounds);
  plan.rule = std::make_unique<IterationRule>(bounds.ranges(trace));
  plan.description =
      "iterations " + request.iterations + " of loop " + request.construct + " on every rank";
  return plan;
}

}  // namespace mtf::filter
