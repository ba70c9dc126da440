// The adaptive model of one stream of zigzagged residuals, coded by range_coder.hpp
// (docs/mtf-format.md section 10.10). A residual v is coded as its bit length n (0 to 64)
// and, for n >= 2, the n - 1 bits below its leading one:
// - n through a binary tree of 7 adaptive bits (high bit first), one tree per bucket of
//   the previous residual's bit length in the same stream (sizes come in runs);
// - the first two bits below the leading one adaptive, per n (a value that sits near a
//   power of two, or a counter's usual increment, shows there);
// - the rest as bits of probability 1/2 (noise: no model finds anything there).
#pragma once

#include <bit>
#include <cstdint>

#include "values/byte_coding.hpp"
#include "values/range_coder.hpp"

namespace mtf::values {

class ResidualModel {
 public:
  static constexpr unsigned kBuckets = 8;
  static constexpr unsigned kMaxLength = 64;
  // The bucket of a previous bit length: 0, 1, 2, 3, 4-5, 6-8, 9-13, 14 and up.
  static unsigned bucketOf(unsigned length) {
    if (length < 4) return length;
    if (length < 6) return 4;
    if (length < 9) return 5;
    return length < 14 ? 6 : 7;
  }

  void encode(RangeEncoder& coder, uint64_t v) {
    const unsigned n = static_cast<unsigned>(std::bit_width(v));
    AdaptiveBit* tree = length_[bucketOf(previous_)];
    unsigned node = 1;
    for (int i = 6; i >= 0; --i) {
      const bool bit = (n >> i) & 1;
      coder.encode(tree[node], bit);
      node = 2 * node + bit;
    }
    previous_ = n;
    if (n < 2) return;
    const unsigned below = n - 1;
    const bool first = (v >> (below - 1)) & 1;
    coder.encode(mantissa_[n][0], first);
    if (below == 1) return;
    coder.encode(mantissa_[n][1 + first], (v >> (below - 2)) & 1);
    coder.encodeDirect(v, below - 2);
  }

  // Throws CodingError (offset: the decoder's position) on a bit length above 64.
  uint64_t decode(RangeDecoder& coder) {
    AdaptiveBit* tree = length_[bucketOf(previous_)];
    unsigned node = 1;
    for (int i = 0; i < 7; ++i) node = 2 * node + coder.decode(tree[node]);
    const unsigned n = node - 128;
    if (n > kMaxLength)
      throw CodingError{coder.consumed(), "bad residual length in range coded values"};
    previous_ = n;
    if (n < 2) return n;
    const unsigned below = n - 1;
    const bool first = coder.decode(mantissa_[n][0]);
    uint64_t v = 2 | uint64_t{first};
    if (below == 1) return v;
    v = 2 * v | coder.decode(mantissa_[n][1 + first]);
    const unsigned rest = below - 2;
    return rest == 0 ? v : (v << rest) | coder.decodeDirect(rest);
  }

 private:
  AdaptiveBit length_[kBuckets][128];
  AdaptiveBit mantissa_[kMaxLength + 1][3];
  unsigned previous_ = 0;
};

}  // namespace mtf::values
