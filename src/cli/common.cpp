#include "cli/common.hpp"

#include <iostream>

#include "util/error.hpp"

namespace mtf::cli {

std::unique_ptr<TraceSource> openInput(const std::string& path, bool lenient, bool strict) {
  ReadOptions opts;
  opts.lenient = lenient;
  opts.strict = strict;
  return openTrace(path, opts);
}

std::string decimalSeconds(uint64_t ticks, uint64_t resolution) {
  if (resolution == 0) return "0";
  std::string out = std::to_string(ticks / resolution);
  uint64_t rest = ticks % resolution;
  // As many fractional digits as the resolution has (1e9 -> 9 digits).
  std::string frac;
  for (uint64_t scale = resolution; scale > 1; scale /= 10) {
    rest *= 10;
    frac += static_cast<char>('0' + rest / resolution);
    rest %= resolution;
  }
  return frac.empty() ? out : out + "." + frac;
}

void flushStdout() {
  std::cout.flush();
  if (!std::cout) throw IoError("<stdout>", "write failed");
}

void mergeLosses(LossReport& a, const LossReport& b) {
  for (const auto& [what, n] : b) a[what] += n;
}

}  // namespace mtf::cli
