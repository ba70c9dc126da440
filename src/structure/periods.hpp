// The main period of a sampled signal (the structure paper's section 2.2): the highest
// relative maximum of the autocorrelation (equation 2), accepted when every other relative
// maximum is below 90% of it (equation 3); otherwise the signal is closed (morphology.hpp)
// to filter small oscillations and the search repeats with a wider closing.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace mtf::structure {

struct PeriodOptions {
  double clearRatio = 0.9;  // equation 3
  // Relative maxima closer than this fraction of T times sqrt(j) to a multiple j*T
  // (j >= 1) are the same period (its multiples, or ripples on its own peak), not a rival.
  // The paper's rule read literally rejects every signal with more than ~10 periods:
  // A(2T)/A(T) is about (n-2)/(n-1) for n periods, above 0.9.
  double harmonicTolerance = 0.15;
  size_t minPeriod = 2;   // samples; shorter lags are noise of the grid
  unsigned retries = 6;   // closings of width 3, 5, 9, 17, ... after the first try
  size_t minRepeats = 2;  // the period fits at least this often into the signal
  // A(T) / A(0) at least this: weaker peaks are chance alignments (a wide closing turns
  // any signal into a few blocks whose autocorrelation has some highest peak).
  double minStrength = 0.2;
};

struct Period {
  double samples = 0;       // the period in samples (interpolated around the peak)
  size_t closingWidth = 0;  // 0: found on the signal itself
  double strength = 0;      // A(T) / A(0)
};

// One try: equations 2 and 3 on the autocorrelation of x.
std::optional<Period> clearPeriod(std::span<const double> x, const PeriodOptions& options = {});
// The paper's loop: clearPeriod on x, then on closings of growing width until one is clear.
std::optional<Period> findPeriod(std::span<const double> x, const PeriodOptions& options = {});

// The relative maxima of `a` at lags 1 .. limit-1 (equation 2's set M).
std::vector<size_t> relativeMaxima(std::span<const double> a, size_t limit);

}  // namespace mtf::structure
