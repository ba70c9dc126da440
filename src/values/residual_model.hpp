// The adaptive models of a stream of zigzagged residuals, coded by range_coder.hpp
// (docs/mtf-format.md sections 10.10 and 10.11). A residual v is coded as its bit length n (0 to
// 64) and, for n >= 2, the n - 1 bits below its leading one:
// - n through a binary tree of 7 adaptive bits (high bit first), one tree per bucket of
//   the previous residual's bit length in the same stream (sizes come in runs);
// - the first two bits below the leading one adaptive, per n (a value that sits near a
//   power of two, or a counter's usual increment, shows there);
// - the rest as bits of probability 1/2 (noise: no model finds anything there).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "values/byte_coding.hpp"
#include "values/range_coder.hpp"

namespace mtf::values {

// The bit length of a residual, coded through one of kBuckets trees of 7 bits chosen by
// the caller, and the bits below its leading one (the first two adaptive, per length).
// Bit: AdaptiveBit (coding 6) or MixedBit (coding 7).
template <class Bit>
class LengthCoder {
 public:
  static constexpr unsigned kBuckets = 8;
  static constexpr unsigned kMaxLength = 64;
  // The bucket of a previous bit length: 0, 1, 2, 3, 4-5, 6-8, 9-13, 14 and up.
  static constexpr unsigned bucketOfLength(unsigned length) {
    if (length < 4) return length;
    if (length < 6) return 4;
    if (length < 9) return 5;
    return length < 14 ? 6 : 7;
  }
  static unsigned bucketOf(unsigned length) { return kBucketOf[length]; }
  static unsigned lengthOf(uint64_t v) { return static_cast<unsigned>(std::bit_width(v)); }
  // The bucket of the bit length of v.
  static unsigned bucketOfValue(uint64_t v) { return kBucketOf[lengthOf(v)]; }

  void encode(RangeEncoder& coder, uint64_t v, unsigned bucket) {
    const unsigned n = lengthOf(v);
    Bit* tree = length_[bucket];
    unsigned node = 1;
    for (int i = 6; i >= 0; --i) {
      const bool bit = (n >> i) & 1;
      coder.encode(tree[node], bit);
      node = 2 * node + bit;
    }
    if (n < 2) return;
    const unsigned below = n - 1;
    const bool first = (v >> (below - 1)) & 1;
    coder.encode(mantissa_[n][0], first);
    if (below == 1) return;
    coder.encode(mantissa_[n][1 + first], (v >> (below - 2)) & 1);
    coder.encodeDirect(v, below - 2);
  }

  // Throws CodingError (offset: the decoder's position) on a bit length above 64.
  uint64_t decode(RangeDecoder& shared, unsigned bucket) {
    // A local copy stays in registers: the stores to the byte-sized counts of MixedBit
    // may alias the decoder's members, which would otherwise be reloaded at every bit.
    RangeDecoder coder = shared;
    const uint64_t v = decodeWith(coder, bucket);
    shared = coder;
    return v;
  }

 private:
  [[gnu::always_inline]] uint64_t decodeWith(RangeDecoder& coder, unsigned bucket) {
    Bit* tree = length_[bucket];
    unsigned node = 1;
    for (int i = 0; i < 7; ++i) node = 2 * node + coder.decode(tree[node]);
    const unsigned n = node - 128;
    if (n > kMaxLength)
      throw CodingError{coder.consumed(), "bad residual length in range coded values"};
    if (n < 2) return n;
    const unsigned below = n - 1;
    const bool first = coder.decode(mantissa_[n][0]);
    uint64_t v = 2 | uint64_t{first};
    if (below == 1) return v;
    v = 2 * v | coder.decode(mantissa_[n][1 + first]);
    const unsigned rest = below - 2;
    return rest == 0 ? v : (v << rest) | coder.decodeDirect(rest);
  }

  static constexpr auto kBucketOf = [] {
    std::array<uint8_t, kMaxLength + 1> buckets{};
    for (unsigned n = 0; n <= kMaxLength; ++n) buckets[n] = static_cast<uint8_t>(bucketOfLength(n));
    return buckets;
  }();
  Bit length_[kBuckets][128];
  Bit mantissa_[kMaxLength + 1][3];
};

// Coding 6: the tree chosen by the previous residual of the same stream.
class ResidualModel {
 public:
  static constexpr unsigned kBuckets = LengthCoder<AdaptiveBit>::kBuckets;
  static unsigned bucketOf(unsigned length) { return LengthCoder<AdaptiveBit>::bucketOf(length); }

  void encode(RangeEncoder& coder, uint64_t v) {
    coder_.encode(coder, v, bucketOf(previous_));
    previous_ = LengthCoder<AdaptiveBit>::lengthOf(v);
  }
  uint64_t decode(RangeDecoder& coder) {
    const uint64_t v = coder_.decode(coder, bucketOf(previous_));
    previous_ = LengthCoder<AdaptiveBit>::lengthOf(v);
    return v;
  }

 private:
  LengthCoder<AdaptiveBit> coder_;
  unsigned previous_ = 0;
};

// Coding 7: the tree chosen by the caller from the previous residual of the same event
// context (times) or the same value slot (values); MixedBit probabilities.
using BucketedResidualModel = LengthCoder<MixedBit>;

}  // namespace mtf::values
