#include "tag/profile.hpp"

#include <cmath>

namespace mtf::tag {

long double Profile::stddevTicks() const {
  if (count < 2) return 0;
  // n * sum(x^2) - sum(x)^2 is exact in 128 bits for any realistic trace (each term below
  // 2^128 while durations stay below 2^44 ticks and counts below 2^40).
  const unsigned __int128 n = count;
  const unsigned __int128 s = total;
  const unsigned __int128 nSq = n * sumSq;
  const unsigned __int128 sSq = s * s;
  if (nSq <= sSq) return 0;
  const long double variance = static_cast<long double>(nSq - sSq) /
                               (static_cast<long double>(count) * static_cast<long double>(count));
  return std::sqrt(variance);
}

int64_t ticksToNs(unsigned __int128 ticks, uint64_t resolution) {
  if (resolution == 0) return 0;
  const unsigned __int128 ns = (ticks * 1'000'000'000u + resolution / 2) / resolution;
  return static_cast<int64_t>(ns);
}

long double ticksToNsReal(long double ticks, uint64_t resolution) {
  if (resolution == 0) return 0;
  return ticks * 1e9L / static_cast<long double>(resolution);
}

}  // namespace mtf::tag
