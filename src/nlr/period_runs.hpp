// Candidate periods for NLR's folding, kept incrementally per pushed element.
//
// For a period k, the run R_k(i) is the number of consecutive positions j <= i with
// element(j) == element(j - k). The window ends with m copies of its last k elements
// exactly when R_k(top) >= (m - 1) * k. Runs are computed on 16-bit fingerprints of the
// elements (equal elements have equal fingerprints), so the periods found are a superset
// of the true ones: the caller confirms each candidate on the elements themselves.
// R_k(i) depends only on the elements up to i, so the row of every position stays valid
// while that position is in the window; pops cost nothing. Rows are kept for the live
// positions only (a ring indexed by absolute position), one 8-lane pass per row, computed
// only when asked for (NLR asks when the chain of previous occurrences is long).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nlr/loop_model.hpp"

namespace mtf::nlr {

class PeriodRuns {
 public:
  // Largest period the table supports (bounds its memory: rows of 2 bytes per period).
  static constexpr size_t kMaxPeriod = 256;

  // Periods 1..maxPeriod, minReps copies, at most `window` + 1 live positions.
  PeriodRuns(size_t maxPeriod, unsigned minReps, size_t window);

  // Records `key` at absolute position `position`; a position not above the last one
  // computed means the elements from there on were popped: their rows are dropped.
  void record(int64_t position, ElementKey key);
  // Computes the rows up to `top` that are missing (from `firstPos` on: rows of positions
  // that left the window are not needed) and the candidates of `top`.
  void update(int64_t top, int64_t firstPos);
  // The smallest candidate period k in [from, to] of the top of the last update, or 0.
  size_t next(size_t from, size_t to) const;
  size_t bytes() const;

 private:
  size_t lanes_;           // periods rounded up to a multiple of 8
  size_t fpMask_;          // fingerprint ring size - 1
  size_t rowMask_;         // row ring size - 1
  int64_t computed_ = -1;  // rows are valid up to this position
  // Fingerprints, reversed and written twice, so positions i-1, i-2, ... are contiguous.
  std::vector<uint16_t> fingerprints_;
  std::vector<uint16_t> rows_;       // row ring: R_k of a position at [slot * lanes_ + k - 1]
  std::vector<uint16_t> threshold_;  // (minReps - 1) * k
  std::vector<uint64_t> hits_;       // bit k - 1: R_k(last) >= threshold (fingerprints)
};

}  // namespace mtf::nlr
