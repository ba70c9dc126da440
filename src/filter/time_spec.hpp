// Times given on the command line (`--begin`, `--end`): seconds (`1.25`, `1.25s`), `800ms`,
// `40us`, `100ns`, ticks (`123456t`), or relative to the trace's start (`+2.5s`). Parsed
// from the decimal text into integer ticks of the trace's clock, never through a double.
#pragma once

#include <cstdint>
#include <string>

#include "model/types.hpp"
#include "util/error.hpp"

namespace mtf::filter {

// A time the user gave that the trace cannot have (a bad unit, a window ending before it
// begins, a time outside the trace): exit 2, nothing written.
class TimeSpecError : public Error {
 public:
  explicit TimeSpecError(const std::string& what) : Error(ExitCode::BadInput, what) {}
};

struct TimeSpec {
  enum class Unit : uint8_t { Seconds, Milliseconds, Microseconds, Nanoseconds, Ticks };
  std::string text;       // as given, for messages
  bool relative = false;  // "+...": from the trace's start
  std::string integer;    // digits before the decimal point
  std::string fraction;   // digits after it
  Unit unit = Unit::Seconds;
};

// Parses `text`; `option` ("--begin") names it in errors. Throws TimeSpecError.
TimeSpec parseTimeSpec(const std::string& text, const std::string& option);

// The tick of `spec` on a clock of `resolution` ticks per second whose trace starts at
// `traceStart` (used by relative times). A time between two ticks falls on the earlier
// one. Throws TimeSpecError if it does not fit in 64 bits or a tick count has a fraction.
Tick resolveTime(const TimeSpec& spec, uint64_t resolution, Tick traceStart);

}  // namespace mtf::filter
