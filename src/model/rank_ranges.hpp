// Rank lists as the text every printer shows: "0-3,5,7-9".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mtf {

// Consecutive runs of `ranks` as ranges, in the given order (sort first for the usual
// form); "" for an empty list.
std::string rankRanges(const std::vector<int64_t>& ranks);

}  // namespace mtf
