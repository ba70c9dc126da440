// A hand-rolled parser for the ':'-separated integer fields of Paraver lines.
#pragma once

#include <cstdint>
#include <string_view>

namespace mtf::paraver {

class FieldCursor {
 public:
  explicit FieldCursor(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}
  bool atEnd() const { return p_ >= end_ && !pendingEmpty_; }

  // Parses the next field as an unsigned integer; false if it is missing, empty, not a
  // number or overflows. Consumes the separator after it.
  bool nextUnsigned(uint64_t& value) {
    if (p_ >= end_ && !pendingEmpty_) return false;
    pendingEmpty_ = false;
    const char* start = p_;
    // 19 digits always fit in 64 bits: no overflow check in the hot loop.
    const char* fastEnd = end_ - p_ > 19 ? p_ + 19 : end_;
    uint64_t v = 0;
    while (p_ < fastEnd && static_cast<unsigned>(*p_ - '0') < 10)
      v = v * 10 + static_cast<uint64_t>(*p_++ - '0');
    if (p_ == start) return false;
    if (p_ < end_ && static_cast<unsigned>(*p_ - '0') < 10) {  // a 20th digit
      const uint64_t digit = static_cast<uint64_t>(*p_++ - '0');
      if (v > (~uint64_t{0} - digit) / 10) return overflow();
      v = v * 10 + digit;
      if (p_ < end_ && static_cast<unsigned>(*p_ - '0') < 10) return overflow();
    }
    return finishField(value, v);
  }

  // Parses a possibly negative integer.
  bool nextSigned(int64_t& value) {
    bool unsignedForm = false;
    return nextEventValue(value, unsignedForm) && !unsignedForm;
  }

  // Parses an event value as paraver-kernel reads it: a signed 64-bit integer, where
  // Extrae writes values unsigned (%llu), so that 2^63 to 2^64-1 arrive as the same 64
  // bits; `unsignedForm` says the text was such a value. False if the field is missing,
  // not a number or beyond 64 bits (overflowed() then says so).
  bool nextEventValue(int64_t& value, bool& unsignedForm) {
    bool negative = false;
    if (p_ < end_ && *p_ == '-') {
      negative = true;
      ++p_;
    }
    uint64_t magnitude = 0;
    if (!nextUnsigned(magnitude)) return false;
    if (negative && magnitude > uint64_t{1} << 63) return overflow();
    unsignedForm = !negative && magnitude > (uint64_t{1} << 63) - 1;
    value = static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
    return true;
  }
  // The last failed field was a number beyond 64 bits (paraver-kernel reads it wrapped).
  bool overflowed() const { return overflowed_; }

 private:
  bool overflow() {
    overflowed_ = true;
    return false;
  }
  bool finishField(uint64_t& value, uint64_t v) {
    if (p_ < end_) {
      if (*p_ != ':') return false;
      ++p_;
      // "1:2:" has an empty last field: remember it so it is reported as missing/bad.
      if (p_ == end_) pendingEmpty_ = true;
    }
    value = v;
    return true;
  }
  const char* p_;
  const char* end_;
  bool overflowed_ = false;
  bool pendingEmpty_ = false;
};

// Parses all of `text` as an unsigned decimal number.
inline bool parseUnsigned(std::string_view text, uint64_t& value) {
  FieldCursor c(text);
  return c.nextUnsigned(value) && c.atEnd() && text.find(':') == std::string_view::npos;
}

}  // namespace mtf::paraver
