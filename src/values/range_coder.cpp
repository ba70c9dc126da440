#include "values/range_coder.hpp"

namespace mtf::values {

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
  for (int i = 0; i < 4 && out_->size() > begin_ && out_->back() == 0; ++i) out_->pop_back();
}

}  // namespace mtf::values
