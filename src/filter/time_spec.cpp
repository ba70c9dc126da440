#include "filter/time_spec.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace mtf::filter {

namespace {

using Wide = unsigned __int128;
// Significant digits: a mantissa below 10^38 fits in 128 bits (its product with the
// resolution is checked).
constexpr size_t kMaxDigits = 38;

struct UnitName {
  const char* suffix;
  TimeSpec::Unit unit;
};
// Longest suffixes first: "ms" before "s".
constexpr UnitName kUnits[] = {{"ms", TimeSpec::Unit::Milliseconds},
                               {"us", TimeSpec::Unit::Microseconds},
                               {"ns", TimeSpec::Unit::Nanoseconds},
                               {"s", TimeSpec::Unit::Seconds},
                               {"t", TimeSpec::Unit::Ticks}};

[[noreturn]] void bad(const std::string& option, const std::string& text, const std::string& why) {
  throw TimeSpecError(option + " " + text + ": " + why +
                      " (expected e.g. 1.25, 1.25s, 800ms, 40us, 100ns, 123456t or +2.5s)");
}

bool allDigits(const std::string& s) {
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Removes the unit suffix from `number`, if any, and returns the unit.
TimeSpec::Unit takeUnit(std::string& number) {
  for (const UnitName& u : kUnits) {
    const std::string suffix = u.suffix;
    if (number.size() > suffix.size() &&
        number.compare(number.size() - suffix.size(), suffix.size(), suffix) == 0) {
      number.resize(number.size() - suffix.size());
      return u.unit;
    }
  }
  return TimeSpec::Unit::Seconds;
}

Wide power10(size_t n) {
  Wide p = 1;
  while (n--) p *= 10;
  return p;
}

Wide digitsValue(const std::string& digits) {
  Wide v = 0;
  for (char c : digits) v = v * 10 + static_cast<unsigned>(c - '0');
  return v;
}

uint64_t perSecond(TimeSpec::Unit unit) {
  switch (unit) {
    case TimeSpec::Unit::Milliseconds:
      return 1'000;
    case TimeSpec::Unit::Microseconds:
      return 1'000'000;
    case TimeSpec::Unit::Nanoseconds:
      return 1'000'000'000;
    default:
      return 1;
  }
}

}  // namespace

TimeSpec parseTimeSpec(const std::string& text, const std::string& option) {
  TimeSpec spec;
  spec.text = text;
  std::string number = text;
  if (!number.empty() && number[0] == '+') {
    spec.relative = true;
    number.erase(0, 1);
  }
  spec.unit = takeUnit(number);
  const size_t dot = number.find('.');
  spec.integer = number.substr(0, dot);
  if (dot != std::string::npos) spec.fraction = number.substr(dot + 1);
  if (spec.integer.empty() && spec.fraction.empty()) bad(option, text, "not a time");
  if (!allDigits(spec.integer) || !allDigits(spec.fraction))
    bad(option, text,
        number.find_first_of("0123456789") == std::string::npos ? "not a time" : "unknown unit");
  spec.integer.erase(0, std::min(spec.integer.find_first_not_of('0'), spec.integer.size()));
  spec.fraction.erase(spec.fraction.find_last_not_of('0') + 1);
  // 10^fraction digits times 10^9 (ns) must fit in 128 bits too.
  if (spec.integer.size() + spec.fraction.size() > kMaxDigits || spec.fraction.size() > 28)
    bad(option, text, "too many digits");
  if (spec.unit == TimeSpec::Unit::Ticks && digitsValue(spec.fraction) != 0)
    bad(option, text, "a tick count has no fraction");
  return spec;
}

Tick resolveTime(const TimeSpec& spec, uint64_t resolution, Tick traceStart) {
  // ticks = (integer + fraction / 10^f) * resolution / perSecond, exactly, rounded down.
  const Wide scale = power10(spec.fraction.size());
  const Wide mantissa = digitsValue(spec.integer) * scale + digitsValue(spec.fraction);
  if (spec.unit != TimeSpec::Unit::Ticks && resolution != 0 && mantissa > ~Wide{0} / resolution)
    throw TimeSpecError(spec.text + ": too many digits");
  const Wide ticks = spec.unit == TimeSpec::Unit::Ticks
                         ? mantissa / scale
                         : mantissa * resolution / (scale * perSecond(spec.unit));
  const Wide at = ticks + (spec.relative ? traceStart : 0);
  if (at > std::numeric_limits<Tick>::max())
    throw TimeSpecError(spec.text + ": beyond the largest time a trace can hold");
  return static_cast<Tick>(at);
}

}  // namespace mtf::filter
