// A quick estimate of what coding 7 (docs/mtf-format.md 10.11) would make of a chunk that
// is too large to range code for a trial every time: per model (the times', each value
// stream's), the order-0 entropy of the residuals' bit lengths plus the bits below each
// one's leading one, counted on an eighth of the residuals and scaled to all. Range coding
// a chunk costs about 750 instructions an event; this estimate about 2 a residual. It ran
// 5% to 30% above the range coded size (it leaves out coding 7's contexts and adaptive
// mantissa bits): measured on the chunks of the corpus and of PyPOP's traces.
// Integer arithmetic only: the estimate decides what the archive holds, so it must come
// out the same on every machine.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtf::values {

// log2(x) in 1/256ths of a bit (x >= 1), to within 3/256 (a mantissa of 8 bits): the binary
// logarithm by repeated squaring of the mantissa, table of 256 entries built at compile time.
inline constexpr auto kLog2Fraction = [] {
  std::array<uint16_t, 256> table{};
  for (uint32_t m = 0; m < 256; ++m) {
    uint64_t y = (uint64_t{256} + m) << 8;  // 1 + m / 256 in 1/65536ths
    uint32_t fraction = 0;
    for (int bit = 7; bit >= 0; --bit) {
      y = (y * y) >> 16;
      if (y >= (uint64_t{2} << 16)) {
        fraction |= 1u << bit;
        y >>= 1;
      }
    }
    table[m] = static_cast<uint16_t>(fraction);
  }
  return table;
}();

inline uint32_t log2Q8(uint64_t x) {
  const unsigned top = static_cast<unsigned>(std::bit_width(x)) - 1;
  const uint64_t mantissa = top >= 8 ? x >> (top - 8) : x << (8 - top);  // 256 to 511
  return top * 256 + kLog2Fraction[mantissa - 256];
}

class RangedEstimate {
 public:
  // The residuals counted: the first kBlock of every kPeriod in a row. Whole runs, where
  // every k-th residual would see only some slots of events with k values each, or only
  // some contexts of a loop whose body has k events.
  static constexpr size_t kBlock = 64, kPeriod = 512;

  // Forgets what was counted; `models` models from now on.
  void reset(size_t models) {
    lengths_.assign(models, {});
    raw_ = counted_ = total_ = 0;
  }
  // Counts the sampled ones of `count` residuals, residual i in model modelOf(i).
  template <class ModelOf>
  void addSampled(const uint64_t* v, size_t count, ModelOf modelOf) {
    std::array<uint32_t, 65>* const lengths = lengths_.data();
    uint64_t raw = 0, counted = 0;
    for (size_t begin = 0; begin < count; begin += kPeriod) {
      const size_t end = std::min(count, begin + kBlock);
      counted += end - begin;
      for (size_t i = begin; i < end; ++i) {
        const unsigned n = static_cast<unsigned>(std::bit_width(v[i]));
        ++lengths[modelOf(i)][n];
        raw += n - (n != 0);  // the bits below the leading one
      }
    }
    raw_ += raw;
    counted_ += counted;
    total_ += count;
  }
  // The estimate, in bits, of all the residuals: each model's lengths at their entropy,
  // plus half of log2(count) for each length seen (what an adaptive model pays to learn
  // it), plus the bits below the leading ones; scaled from the counted ones to all.
  uint64_t bits() const {
    if (counted_ == 0) return 0;
    uint64_t q8 = 0;
    for (const auto& counts : lengths_) {
      uint64_t total = 0;
      for (uint32_t c : counts) total += c;
      if (total == 0) continue;
      const uint32_t logTotal = log2Q8(total);
      for (uint32_t c : counts)
        if (c != 0) q8 += c * uint64_t{logTotal - log2Q8(c)} + logTotal / 2;
    }
    return (q8 / 256 + raw_) * total_ / counted_;
  }

 private:
  std::vector<std::array<uint32_t, 65>> lengths_;  // per model, residuals by bit length
  uint64_t raw_ = 0, counted_ = 0, total_ = 0;
};

}  // namespace mtf::values
