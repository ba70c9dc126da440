#include "structure/morphology.hpp"

#include <deque>
#include <functional>

namespace mtf::structure {

namespace {

// The extreme (by `better`) of x over [i - width/2, i + width - 1 - width/2] for every i:
// a monotonic deque keeps it O(n) whatever the width.
template <typename Better>
std::vector<double> slidingExtreme(std::span<const double> x, size_t width, Better better) {
  const size_t n = x.size();
  std::vector<double> out(n);
  if (n == 0 || width <= 1) return {x.begin(), x.end()};
  const size_t before = width / 2, after = width - 1 - before;
  std::deque<size_t> window;  // indices whose values are monotonic by `better`
  size_t next = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t hi = std::min(n - 1, i + after);
    for (; next <= hi; ++next) {
      while (!window.empty() && !better(x[window.back()], x[next])) window.pop_back();
      window.push_back(next);
    }
    while (window.front() + before < i) window.pop_front();
    out[i] = x[window.front()];
  }
  return out;
}

}  // namespace

std::vector<double> dilate(std::span<const double> x, size_t width) {
  return slidingExtreme(x, width, std::greater<double>());
}

std::vector<double> erode(std::span<const double> x, size_t width) {
  return slidingExtreme(x, width, std::less<double>());
}

// An odd width keeps the window symmetric, so the erosion undoes the dilation exactly
// wherever no gap was filled.
std::vector<double> closing(std::span<const double> x, size_t width) {
  width |= 1;
  const std::vector<double> d = dilate(x, width);
  return erode(d, width);
}

std::vector<Run> positiveRuns(std::span<const double> x) {
  std::vector<Run> runs;
  for (size_t i = 0; i < x.size();) {
    if (x[i] <= 0) {
      ++i;
      continue;
    }
    const size_t first = i;
    while (i < x.size() && x[i] > 0) ++i;
    runs.push_back({first, i});
  }
  return runs;
}

}  // namespace mtf::structure
