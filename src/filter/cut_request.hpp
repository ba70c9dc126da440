// What `mtf convert` (and the API's and Python's convert) asks of a cut: a time window
// (`--begin`, `--end`, `--shift-times`) or iterations of a loop of the program model
// (`--construct`, `--iterations`), checked against the trace and made into a CutRule.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "filter/time_window.hpp"
#include "program/program_model.hpp"

namespace mtf::filter {

struct CutRequest {
  std::string begin, end;  // time_spec.hpp's forms; empty: the trace's start / end
  bool shiftTimes = false;
  std::string construct, iterations;  // a loop's PATH and "A-B"
  bool any() const { return byTime() || byIterations() || shiftTimes; }
  bool byTime() const { return !begin.empty() || !end.empty(); }
  bool byIterations() const { return !construct.empty() || !iterations.empty(); }
};

struct CutPlan {
  std::unique_ptr<CutRule> rule;
  std::optional<TimeWindow> window;  // a cut by time: the source may read only this
  std::string description;           // "[1000, 2000) ticks", "iterations 2-3 of loop 2"
};

// The window [from, to) of `begin`/`end` on the trace's clock: an open side is the
// trace's start or end. Throws TimeSpecError (exit 2) for a bad time, a window that ends
// before it begins, or one outside the trace (when its definitions give its length).
TimeWindow resolveWindow(const CutRequest& request, const ClockProperties& clock);

using ModelOf = std::function<program::ProgramModel()>;
using OpenSource = std::function<std::unique_ptr<TraceSource>()>;
// The rule of `request` on `trace` (named in errors), whose definitions are `defs`. For
// iterations, `model` gives the program model and `open` a source for the first pass.
// Throws TimeSpecError for contradictory or bad options.
CutPlan planCut(const CutRequest& request, const Definitions& defs, const std::string& trace,
                const ModelOf& model, const OpenSource& open);

}  // namespace mtf::filter
