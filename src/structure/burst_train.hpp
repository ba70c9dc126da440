// Iterations of varying length (the structure paper is silent on them): on real traces an
// iteration's length often varies by half or more (GPU kernels, load imbalance absorbed by a
// blocking call), so after a few iterations the signal no longer lines up with itself and
// the autocorrelation has no clear peak at the mean iteration time (casita-jacobi-gpu:
// 1,000 iterations whose lengths vary by 97% around 43 ms). What stays constant is the
// work each iteration does: the same calls, so about the same number of events.
//
// A burst train is a run of iterations, each starting where a burst of the signal (a run of
// non-zero samples) starts and holding `group` bursts, whose event counts are all within
// `tolerance` of the train's median: the period is the train's span over its iterations
// (the mean iteration time, which is what a loop's iteration time means).
#pragma once

#include <cstddef>
#include <optional>
#include <span>

namespace mtf::structure {

struct BurstTrainOptions {
  size_t minIterations = 4;  // irregular bursts need more evidence than a clear period
  double tolerance = 0.25;   // an iteration's events: within this share of the median
  size_t maxGroup = 4;       // iterations of up to this many bursts are tried
  double minEvents = 2;      // an iteration holds at least an Enter and a Leave
};

struct BurstTrain {
  size_t first = 0, last = 0;  // samples [first, last) of the signal given
  double period = 0;           // mean iteration length in samples
  size_t iterations = 0;
  size_t middleStart = 0, middleLength = 0;  // one whole iteration in the train's middle
  size_t group = 1;                          // bursts per iteration
};

// The longest burst train of `signal` (events[i]: the events of sample i); among groupings
// that cover about as much (90%), the one with the fewest bursts per iteration.
std::optional<BurstTrain> findBurstTrain(std::span<const double> signal,
                                         std::span<const double> events,
                                         const BurstTrainOptions& options = {});

}  // namespace mtf::structure
