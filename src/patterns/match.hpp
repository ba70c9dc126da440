// Approximate pattern matching (paper, Algorithm 3): windows of a symbol sequence
// within edit distance k of a pattern, found with the n-gram filter of Jokinen and
// Ukkonen before the (slower) edit distance.
//
// A window has the pattern's length m. It is verified with the edit distance only if
// it shares at least m - n + 1 - k*n n-grams with the pattern (counted as a multiset
// intersection: the lemma's bound). Positioned n-grams shift the window: when the
// pattern's first n-gram occurs at position d > 0 of the window, the window moves d
// steps right at once (this is the rule Figure 6 applies: "ab at position 4 -> jump to
// window 16"; other n-grams do not shift, since the figure examines windows 6 and 7).
// After a match the search continues at the next adjacent (non-overlapping) window.
#pragma once

#include <cstdint>
#include <vector>

#include "patterns/symbols.hpp"

namespace mtf::patterns {

struct MatchOptions {
  uint32_t maxDistance = 0;  // k
  uint32_t ngram = 2;        // n
  bool shiftOnFirstNgram = true;
  bool jumpAfterMatch = true;  // false: every window passing the filter is verified
};

struct WindowMatch {
  size_t start = 0;  // window start in the sequence
  size_t length = 0;
  uint32_t distance = 0;
  bool operator==(const WindowMatch&) const = default;
};

// What happened to one examined window (for tests and --explain).
struct WindowStep {
  size_t start = 0;
  uint32_t shared = 0;    // shared n-grams
  int64_t distance = -1;  // edit distance, -1 if the filter skipped the window
  size_t shift = 0;       // > 0: moved right by the first n-gram rule
};

// Levenshtein distance (unit costs).
uint32_t editDistance(const std::vector<SymbolId>& a, const std::vector<SymbolId>& b);

// The filter threshold m - n + 1 - k*n (may be <= 0: every window is verified).
int64_t sharedThreshold(size_t m, const MatchOptions& options);

std::vector<WindowMatch> matchWindows(const std::vector<SymbolId>& pattern,
                                      const std::vector<SymbolId>& text,
                                      const MatchOptions& options,
                                      std::vector<WindowStep>* steps = nullptr);

}  // namespace mtf::patterns
