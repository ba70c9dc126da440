// Maximal repeats of a symbol sequence (the paper's Algorithms 1 and 2 compute the same
// set on the fly with growing n-grams; we use a suffix array + LCP array instead, which
// gives the same maximal repeats in O(n log n) time and O(n) memory, without the
// quadratic re-checking of prefix positions).
//
// A maximal repeat (paper, section IV.B) is a substring occurring at least twice that
// cannot be extended to the left or to the right without losing an occurrence. As in
// the paper, repeats are at least two symbols long (a bi-gram) and must occur at least
// twice without overlapping; the occurrences reported are the non-overlapping ones,
// taken greedily from the left.
#pragma once

#include <cstdint>
#include <vector>

#include "patterns/symbols.hpp"

namespace mtf::patterns {

struct MaximalRepeat {
  uint32_t length = 0;
  std::vector<uint32_t> positions;  // start positions, ascending, non-overlapping
};

// Suffix array of `s` (prefix doubling with radix sort).
std::vector<uint32_t> suffixArray(const std::vector<SymbolId>& s);
// lcp[i] = longest common prefix of suffixes sa[i-1] and sa[i] (lcp[0] = 0), Kasai.
std::vector<uint32_t> lcpArray(const std::vector<SymbolId>& s, const std::vector<uint32_t>& sa);

struct RepeatLimits {
  uint32_t minLength = 2;
  uint32_t minFrequency = 2;
  size_t maxRepeats = 100000;  // stop collecting after this many (largest first is not
                               // guaranteed; the caller ranks them)
};

std::vector<MaximalRepeat> maximalRepeats(const std::vector<SymbolId>& s,
                                          const RepeatLimits& limits = {});

}  // namespace mtf::patterns
