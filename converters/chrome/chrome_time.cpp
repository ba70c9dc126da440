#include "converters/chrome/chrome_time.hpp"

#include <limits>

#include "converters/chrome/json_text.hpp"

namespace mtf::chrome {
namespace {

constexpr uint64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kDoubleExact = int64_t{1} << 53;

}  // namespace

MicroClock::MicroClock(uint64_t resolution, Tick origin)
    : resolution_(resolution == 0 ? kNanosPerSecond : resolution), origin_(origin) {
  if (kNanosPerSecond % resolution_ == 0) factor_ = kNanosPerSecond / resolution_;
}

int64_t MicroClock::nanoseconds(Tick t) {
  const bool before = t < origin_;
  const unsigned __int128 delta = before ? origin_ - t : t - origin_;
  unsigned __int128 ns = 0;
  if (factor_ != 0) {
    ns = delta * factor_;
  } else {
    const unsigned __int128 scaled = delta * kNanosPerSecond;
    ns = (scaled + resolution_ / 2) / resolution_;
    if (scaled % resolution_ != 0) ++rounded_;
  }
  constexpr auto kMax = static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max());
  if (ns > kMax) ns = kMax;  // 292 years: past any real trace
  const int64_t value = static_cast<int64_t>(ns);
  if (value > kDoubleExact) ++beyond_;
  return before ? -value : value;
}

void MicroClock::appendMicros(std::string& out, int64_t ns) {
  uint64_t magnitude = static_cast<uint64_t>(ns);
  if (ns < 0) {
    out += '-';
    magnitude = ~magnitude + 1;
  }
  appendInt(out, magnitude / 1000);
  const uint64_t fraction = magnitude % 1000;
  out += '.';
  out += static_cast<char>('0' + fraction / 100);
  out += static_cast<char>('0' + fraction / 10 % 10);
  out += static_cast<char>('0' + fraction % 10);
}

}  // namespace mtf::chrome
