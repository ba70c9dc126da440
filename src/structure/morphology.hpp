// Morphological filters of a sampled signal (the structure paper's section 2.1): erosion
// (the minimum over a window), dilation (the maximum), and closing (dilation, then erosion
// of the same width), which merges pulses closer than the width into one burst.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace mtf::structure {

// Windows of `width` samples centred on each sample (clipped at the signal's ends).
std::vector<double> dilate(std::span<const double> x, size_t width);
std::vector<double> erode(std::span<const double> x, size_t width);
std::vector<double> closing(std::span<const double> x, size_t width);

// The runs [first, last) where x > 0, in order.
struct Run {
  size_t first = 0, last = 0;
};
std::vector<Run> positiveRuns(std::span<const double> x);

}  // namespace mtf::structure
