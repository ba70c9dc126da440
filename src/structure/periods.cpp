#include "structure/periods.hpp"

#include <algorithm>
#include <cmath>

#include "structure/autocorrelation.hpp"
#include "structure/morphology.hpp"

namespace mtf::structure {

std::vector<size_t> relativeMaxima(std::span<const double> a, size_t limit) {
  std::vector<size_t> m;
  limit = std::min(limit, a.size() - 1);
  for (size_t k = 1; k < limit; ++k) {
    if (!(a[k - 1] < a[k])) continue;
    size_t plateauEnd = k;  // a flat top counts once, at its first sample
    while (plateauEnd + 1 < a.size() && a[plateauEnd + 1] == a[k]) ++plateauEnd;
    if (plateauEnd + 1 < a.size() && a[plateauEnd + 1] < a[k]) m.push_back(k);
  }
  return m;
}

namespace {

// Iterations vary in length, so the peak of the j-th multiple wanders like a random walk
// of j steps: the tolerance grows with sqrt(j).
bool nearMultiple(size_t k, size_t t, double tolerance) {
  const double ratio = static_cast<double>(k) / static_cast<double>(t);
  const double j = std::round(ratio);
  return j >= 1 && std::abs(ratio - j) <= tolerance * std::sqrt(j);
}

// Equation 3: every relative maximum that is not T (nor a multiple of it) is below
// clearRatio * A(T).
bool clearlyMain(std::span<const double> a, const std::vector<size_t>& maxima, size_t t,
                 const PeriodOptions& o) {
  for (size_t k : maxima)
    if (!nearMultiple(k, t, o.harmonicTolerance) && a[k] >= o.clearRatio * a[t]) return false;
  return true;
}

// The peak's position between samples (a parabola through its neighbours).
double interpolatedPeak(std::span<const double> a, size_t t) {
  if (t == 0 || t + 1 >= a.size()) return static_cast<double>(t);
  const double l = a[t - 1], c = a[t], r = a[t + 1];
  const double denominator = l - 2 * c + r;
  if (denominator >= 0) return static_cast<double>(t);
  return static_cast<double>(t) + 0.5 * (l - r) / denominator;
}

// A super-period T (a check every k iterations) can peak higher than its fundamental T/k
// when the check dominates the signal; the rule then fails on T/k's peak (at 90% or more of
// A(T), and no multiple of T). The paper is silent; mtf prefers the shortest such divisor
// peak of which T is a multiple, when it passes equation 3 itself (T is then one of its
// harmonics, and the next level still finds the check inside a longer window if any).
size_t fundamentalOf(std::span<const double> a, const std::vector<size_t>& maxima, size_t t,
                     const PeriodOptions& o) {
  for (size_t k : maxima) {  // ascending lags
    if (k >= t) break;
    if (a[k] >= o.clearRatio * a[t] && nearMultiple(t, k, o.harmonicTolerance) &&
        clearlyMain(a, maxima, k, o))
      return k;
  }
  return t;
}

}  // namespace

std::optional<Period> clearPeriod(std::span<const double> x, const PeriodOptions& o) {
  const std::vector<double> a = autocorrelation(x);
  if (a.empty() || a[0] <= 0) return std::nullopt;  // a constant signal
  const size_t limit = x.size() / std::max<size_t>(1, o.minRepeats) + 1;
  std::vector<size_t> maxima = relativeMaxima(a, limit);
  std::erase_if(maxima, [&](size_t k) { return k < o.minPeriod; });
  if (maxima.empty()) return std::nullopt;
  size_t t = *std::max_element(maxima.begin(), maxima.end(),
                               [&](size_t p, size_t q) { return a[p] < a[q]; });
  t = fundamentalOf(a, maxima, t, o);
  if (a[t] < o.minStrength * a[0] || !clearlyMain(a, maxima, t, o)) return std::nullopt;
  return Period{interpolatedPeak(a, t), 0, a[t] / a[0]};
}

std::optional<Period> findPeriod(std::span<const double> x, const PeriodOptions& o) {
  if (x.size() < 2 * o.minPeriod + 1) return std::nullopt;
  if (auto p = clearPeriod(x, o)) return p;
  size_t width = 3;
  for (unsigned attempt = 0; attempt < o.retries && width < x.size() / 4; ++attempt) {
    const std::vector<double> closed = closing(x, width);
    if (auto p = clearPeriod(closed, o)) {
      p->closingWidth = width;
      return p;
    }
    width = 2 * width - 1;
  }
  return std::nullopt;
}

}  // namespace mtf::structure
