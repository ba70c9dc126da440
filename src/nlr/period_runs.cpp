#include "nlr/period_runs.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtf::nlr {

namespace {

size_t powerOfTwoAtLeast(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

uint16_t fingerprint(ElementKey key) {
  return static_cast<uint16_t>(key ^ (key >> 16) ^ (key >> 32) ^ (key >> 48));
}

// One row: runs of `previous` extended where the fingerprints `back` (positions i-1,
// i-2, ...) equal `fp`; returns the hit bits of 8 periods per step into `hits`.
void computeRow(const uint16_t* back, uint16_t fp, const uint16_t* previous,
                const uint16_t* threshold, size_t lanes, uint16_t* row, uint64_t* hits) {
#if defined(__SSE2__)
  const __m128i x = _mm_set1_epi16(static_cast<short>(fp));
  const __m128i one = _mm_set1_epi16(1);
  const __m128i zero = _mm_setzero_si128();
  for (size_t j = 0; j < lanes; j += 8) {
    const __m128i f = _mm_loadu_si128(reinterpret_cast<const __m128i*>(back + j));
    const __m128i eq = _mm_cmpeq_epi16(f, x);
    const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(previous + j));
    const __m128i r = _mm_and_si128(_mm_adds_epu16(p, one), eq);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(row + j), r);
    const __m128i t = _mm_loadu_si128(reinterpret_cast<const __m128i*>(threshold + j));
    const __m128i ge = _mm_cmpeq_epi16(_mm_subs_epu16(t, r), zero);
    const auto bits = static_cast<uint64_t>(_mm_movemask_epi8(_mm_packs_epi16(ge, zero)));
    hits[j / 64] |= bits << (j % 64);
  }
#else
  for (size_t j = 0; j < lanes; ++j) {
    const uint16_t r =
        back[j] == fp ? static_cast<uint16_t>(previous[j] + (previous[j] != 0xFFFF)) : 0;
    row[j] = r;
    if (r >= threshold[j]) hits[j / 64] |= uint64_t{1} << (j % 64);
  }
#endif
}

}  // namespace

PeriodRuns::PeriodRuns(size_t maxPeriod, unsigned minReps, size_t window)
    : lanes_((std::max<size_t>(maxPeriod, 1) + 7) / 8 * 8) {
  const size_t fpRing = powerOfTwoAtLeast(std::max(window + 2, lanes_));
  fpMask_ = fpRing - 1;
  fingerprints_.assign(2 * fpRing, 0);
  const size_t rowRing = powerOfTwoAtLeast(window + 2);
  rowMask_ = rowRing - 1;
  rows_.assign((rowRing + 1) * lanes_, 0);  // the extra row stays zero (first element)
  threshold_.resize(lanes_);
  for (size_t j = 0; j < lanes_; ++j)
    threshold_[j] = static_cast<uint16_t>(std::min<size_t>((minReps - 1) * (j + 1), 0xFFFF));
  hits_.assign((lanes_ + 63) / 64, 0);
}

void PeriodRuns::record(int64_t position, ElementKey key) {
  if (position <= computed_) computed_ = position - 1;
  const size_t reversed = fpMask_ - (static_cast<size_t>(position) & fpMask_);
  const uint16_t fp = fingerprint(key);
  fingerprints_[reversed] = fp;
  fingerprints_[reversed + fpMask_ + 1] = fp;
}

void PeriodRuns::update(int64_t top, int64_t firstPos) {
  for (int64_t p = std::max(computed_ + 1, firstPos); p <= top; ++p) {
    const size_t slot = static_cast<size_t>(p) & rowMask_;
    // Runs start at the window's first element: the runs a fold needs lie after it.
    const size_t previous = p == firstPos ? rowMask_ + 1 : (slot - 1) & rowMask_;
    const size_t reversed = fpMask_ - (static_cast<size_t>(p) & fpMask_);
    // Periods up to the elements from firstPos to p: a fold of period k needs the runs of
    // the positions p > top - (minReps - 1) * k >= firstPos + k - 1 only.
    const size_t lanes = std::min(lanes_, (static_cast<size_t>(p - firstPos) + 8) / 8 * 8);
    std::fill(hits_.begin(), hits_.end(), 0);
    computeRow(&fingerprints_[reversed + 1], fingerprints_[reversed], &rows_[previous * lanes_],
               threshold_.data(), lanes, &rows_[slot * lanes_], hits_.data());
  }
  computed_ = std::max(computed_, top);
}

size_t PeriodRuns::next(size_t from, size_t to) const {
  if (from < 1) from = 1;
  to = std::min(to, lanes_);
  for (size_t j = from - 1; j < to;) {
    const uint64_t word = hits_[j / 64] >> (j % 64);
    if (word != 0) {
      const size_t k = j + static_cast<size_t>(__builtin_ctzll(word)) + 1;
      return k <= to ? k : 0;
    }
    j = (j / 64 + 1) * 64;
  }
  return 0;
}

size_t PeriodRuns::bytes() const {
  return (fingerprints_.capacity() + rows_.capacity() + threshold_.capacity()) * sizeof(uint16_t) +
         hits_.capacity() * sizeof(uint64_t);
}

}  // namespace mtf::nlr
