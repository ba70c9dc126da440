// A binary range coder with adaptive probabilities (docs/mtf-format.md section 10.10).
//
// The coder keeps an interval [low, low + range) of 32-bit fixed point numbers; each bit
// narrows it in proportion to the bit's probability, and whole bytes leave the top of `low`
// as soon as range falls below 2^24. A carry out of `low` is propagated into the bytes not
// yet written (those held back: the last one written and any 0xFF after it), as LZMA does.
// Differences from LZMA: 12-bit probabilities; the first byte (always 0) is not written;
// the end writes the number of the final interval with the most trailing zero bytes and
// drops up to 4 of those bytes, the decoder reading zeros past the end of its input.
#pragma once

#include <array>
#include <cstdint>

#include "values/byte_coding.hpp"

namespace mtf::values {

// The probability that a bit is 0, in 1/4096, and how fast it follows the bits coded.
// It starts at 1/2; the first bits move it by 1/2, 1/3, ... of the way to their side (a
// count in the top 4 bits), then by 1/32; it stays within [31, 4065].
struct AdaptiveBit {
  static constexpr unsigned kBits = 12;
  static constexpr uint32_t kOne = 1u << kBits;
  uint16_t state = kOne / 2;  // low 12 bits: probability of 0; high 4: bits seen (saturating)

  uint32_t probability() const { return state & (kOne - 1); }
  void update(bool bit) {
    const uint32_t seen = state >> kBits;
    int32_t p = static_cast<int32_t>(probability());
    const int32_t target = bit ? 0 : static_cast<int32_t>(kOne);
    p += ((target - p) * kShare[seen]) >> 16;  // arithmetic shift: rounds down
    p = p < 31 ? 31 : (p > static_cast<int32_t>(kOne) - 31 ? static_cast<int32_t>(kOne) - 31 : p);
    state = static_cast<uint16_t>(p | (seen + (seen < kRateCount - 1)) << kBits);
  }

 private:
  static constexpr uint32_t kRateCount = 16;
  // By bits seen: the share of the way to the bit's side taken, in 1/65536 (65536 / d for
  // d = 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, then 32 for good).
  static constexpr int32_t kShare[kRateCount] = {32768, 21845, 16384, 13107, 10922, 9362,
                                                 8192,  6553,  5461,  4681,  4096,  3276,
                                                 2730,  2340,  2048,  2048};
};

// Coding 7: a probability that follows the bits coded at two rates and takes their mean
// (docs/mtf-format.md 10.11.1). Two 16-bit estimates of the probability of 0 start at 1/2;
// after n bits, each moves by 1/d of the way to the bit's side, d = n + 2 capped at 16 for
// the fast one and at 128 for the slow one: the fast one follows a run, the slow one
// keeps a skewed bit's long-run odds (bench/corpus/rc_probe.sh, estimates over the 17 real
// traces: .mtf / zstd -19 0.5163 with AdaptiveBit, 0.5153 with MixedBit; Paraver 0.5951 ->
// 0.5930).
inline constexpr uint32_t kMixedSeenMax = 126;  // d = 128 from then on
inline constexpr auto kMixedShares = [] {
  std::array<int32_t, kMixedSeenMax + 1> shares{};
  for (uint32_t s = 0; s <= kMixedSeenMax; ++s) shares[s] = static_cast<int32_t>(65536 / (s + 2));
  return shares;
}();
inline constexpr auto kMixedClamped = [] {
  std::array<uint16_t, AdaptiveBit::kOne> clamped{};
  for (uint32_t p = 0; p < AdaptiveBit::kOne; ++p)
    clamped[p] = static_cast<uint16_t>(
        p < 31 ? 31 : (p > AdaptiveBit::kOne - 31 ? AdaptiveBit::kOne - 31 : p));
  return clamped;
}();
struct MixedBit {
  uint16_t fast = 32768, slow = 32768;
  uint8_t seen = 0;

  // Their mean, in 1/4096, kept within [31, 4065] (a table: one load instead of two
  // compares and moves, on the path of every coded bit).
  uint32_t probability() const { return kMixedClamped[(uint32_t{fast} + slow) >> 5]; }
  void update(bool bit) {
    const int32_t target = bit ? 0 : 65535;
    if (seen == kMixedSeenMax) [[likely]] {  // shares 4096 and 512: the same as shifts
      fast = static_cast<uint16_t>(fast + ((target - fast) >> 4));
      slow = static_cast<uint16_t>(slow + ((target - slow) >> 7));
      return;
    }
    const uint32_t fastSeen = seen < 14 ? seen : 14;
    // (target - x) * share fits in 32 bits: at most 65535 * 32768 < 2^31.
    fast = static_cast<uint16_t>(fast + (((target - fast) * shareOf(fastSeen)) >> 16));
    slow = static_cast<uint16_t>(slow + (((target - slow) * shareOf(seen)) >> 16));
    seen = static_cast<uint8_t>(seen + (seen < kMixedSeenMax));
  }
  // 65536 / (seen + 2), rounded down.
  static int32_t shareOf(uint32_t seen) { return kMixedShares[seen]; }
};

class RangeEncoder {
 public:
  // Appends the coded bytes to `out` (from its current end).
  explicit RangeEncoder(ByteBuffer& out) : out_(out), begin_(out.size()) {}

  // Bit: AdaptiveBit or MixedBit.
  template <class Bit>
  void encode(Bit& bit, bool value) {
    const uint32_t bound = (range_ >> AdaptiveBit::kBits) * bit.probability();
    if (!value) {
      range_ = bound;
    } else {
      low_ += bound;
      range_ -= bound;
    }
    bit.update(value);
    normalize();
  }
  // The `count` low bits of `value`, high bit first, each with probability 1/2.
  void encodeDirect(uint64_t value, unsigned count) {
    while (count > 0) {
      --count;
      range_ >>= 1;
      if ((value >> count) & 1) low_ += range_;
      normalize();
    }
  }
  // Writes what is left; the encoder is not used after.
  void finish();

 private:
  // One byte is always enough (see RangeDecoder::normalize).
  void normalize() {
    if (range_ < kTop) {
      range_ <<= 8;
      shiftLow();
    }
  }
  void shiftLow();
  static constexpr uint32_t kTop = 1u << 24;
  ByteBuffer& out_;
  size_t begin_;      // where this coder's bytes start in out_
  uint64_t low_ = 0;  // 33 bits: bit 32 is a carry not yet propagated
  uint32_t range_ = 0xFFFFFFFFu;
  uint8_t cache_ = 0;     // the last byte out of `low`, not written yet
  uint64_t pending_ = 0;  // 0xFF bytes after it, not written yet
  bool started_ = false;  // cache_ holds a byte to write (the first, always 0, is not)
};

class RangeDecoder {
 public:
  // Decodes [data, data + size); bytes past the end read as 0.
  RangeDecoder(const uint8_t* data, size_t size) : data_(data), size_(size) {
    for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | nextByte();
  }

  template <class Bit>
  bool decode(Bit& bit) {
    const uint32_t bound = (range_ >> AdaptiveBit::kBits) * bit.probability();
    bool value;
    if (code_ < bound) {
      range_ = bound;
      value = false;
    } else {
      code_ -= bound;
      range_ -= bound;
      value = true;
    }
    bit.update(value);
    normalize();
    return value;
  }
  uint64_t decodeDirect(unsigned count) {
    uint64_t value = 0;
    while (count > 0) {
      --count;
      range_ >>= 1;
      const bool one = code_ >= range_;
      if (one) code_ -= range_;
      value = (value << 1) | (one ? 1 : 0);
      normalize();
    }
    return value;
  }
  // Bytes taken so far, the zeros read past the end included.
  size_t consumed() const { return position_; }
  // After the last symbol: true if the input ended where the encoder's did. The decoder
  // then has read every byte of it and at most the 4 zeros the encoder dropped (it reads
  // as many bytes as the encoder wrote), and its code lies inside its range.
  bool endedWell() const { return position_ >= size_ && position_ <= size_ + 4 && code_ < range_; }

 private:
  // One byte is always enough: range is at least 2^24 before a bit, and a bit leaves at
  // least (2^24 >> 12) * 31 > 2^16 (the probabilities stay within [31, 4065]), or half of
  // it for a direct bit; whatever the input, since range does not depend on the code.
  void normalize() {
    if (range_ < (1u << 24)) {
      range_ <<= 8;
      code_ = (code_ << 8) | nextByte();
    }
  }
  uint8_t nextByte() {
    const uint8_t b = position_ < size_ ? data_[position_] : 0;
    ++position_;
    return b;
  }
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
  uint32_t code_ = 0;
  uint32_t range_ = 0xFFFFFFFFu;
};

}  // namespace mtf::values
