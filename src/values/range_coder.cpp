#include "values/range_coder.hpp"

namespace mtf::values {

void RangeEncoder::shiftLow() {
  // A byte leaves `low` unless it is 0xFF with no carry: a later carry could still change
  // it, so it waits (counted in pending_) until the next byte settles it.
  if (static_cast<uint32_t>(low_) < 0xFF000000u || (low_ >> 32) != 0) {
    const uint8_t carry = static_cast<uint8_t>(low_ >> 32);
    if (started_) out_.push_back(static_cast<uint8_t>(cache_ + carry));
    started_ = true;
    for (; pending_ > 0; --pending_) out_.push_back(static_cast<uint8_t>(0xFF + carry));
    cache_ = static_cast<uint8_t>(low_ >> 24);
  } else {
    ++pending_;
  }
  low_ = (low_ & 0x00FFFFFFu) << 8;
}

void RangeEncoder::finish() {
  // The number in [low, low + range) with the most trailing zero bits: the zero bytes at
  // its end are not written (the decoder reads zeros past the end).
  const uint64_t end = low_ + range_;
  for (unsigned k = 32; k > 0; --k) {
    const uint64_t mask = (uint64_t{1} << k) - 1;
    const uint64_t x = (low_ + mask) & ~mask;
    if (x < end) {
      low_ = x;
      break;
    }
  }
  for (int i = 0; i < 5; ++i) shiftLow();
  // Zero bytes at the end read back as such: at most 4 are dropped, so that a decoder
  // knows it has read exactly its input and at most 4 zeros past it.
  for (int i = 0; i < 4 && out_.size() > begin_ && out_.back() == 0; ++i) out_.pop_back();
}

}  // namespace mtf::values
