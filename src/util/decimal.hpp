// Decimal text of integers for the text writers: digits written by pairs from the end of a
// caller's buffer, with no pass to count them first (std::to_chars counts, then writes).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace mtf {

// The longest text writeDecimalBefore() gives (UINT64_MAX has 20 digits; a sign).
inline constexpr size_t kMaxDecimalChars = 21;

namespace detail {
inline constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";
// 10^k for k in 1..19, and 0 at 0 (so that 0 counts one digit).
inline constexpr auto kPowersOfTen = [] {
  std::array<uint64_t, 20> powers{};
  uint64_t power = 1;
  for (size_t k = 1; k < powers.size(); ++k) powers[k] = power *= 10;
  return powers;
}();
}  // namespace detail

// The number of decimal digits of `v` (1 for 0), from its bit width: no division.
inline unsigned decimalDigits(uint64_t v) {
  // (width * 1233) >> 12 = floor(width * log10(2)): one less than the digits, unless `v`
  // reaches the next power of ten.
  const auto guess = static_cast<unsigned>((std::bit_width(v | 1) * 1233) >> 12);
  return guess + (v >= detail::kPowersOfTen[guess] ? 1 : 0);
}

// Writes the 8 digits of `v` (below 10^8, with leading zeros) just before `end`: two
// halves of 4 digits, each two pairs, computed side by side in 32 bits (a chain of
// divisions by 100 waits for each quotient).
inline void write8DigitsBefore(uint32_t v, char* end) {
  const uint32_t high = v / 10000, low = v % 10000;
  std::memcpy(end - 8, detail::kDigitPairs + (high / 100) * 2, 2);
  std::memcpy(end - 6, detail::kDigitPairs + (high % 100) * 2, 2);
  std::memcpy(end - 4, detail::kDigitPairs + (low / 100) * 2, 2);
  std::memcpy(end - 2, detail::kDigitPairs + (low % 100) * 2, 2);
}

// Writes `v` in decimal so that it ends just before `end`; returns where it starts.
inline char* writeDecimalBefore(uint64_t v, char* end) {
  while (v >= 100000000) {  // 8 digits at a time (a time in nanoseconds has 10 or more)
    write8DigitsBefore(static_cast<uint32_t>(v % 100000000), end);
    v /= 100000000;
    end -= 8;
  }
  auto rest = static_cast<uint32_t>(v);  // the leading digits in 32 bits
  while (rest >= 100) {
    const uint32_t pair = (rest % 100) * 2;
    rest /= 100;
    end -= 2;
    std::memcpy(end, detail::kDigitPairs + pair, 2);
  }
  if (rest >= 10) {
    end -= 2;
    std::memcpy(end, detail::kDigitPairs + rest * 2, 2);
  } else {
    *--end = static_cast<char>('0' + rest);
  }
  return end;
}

inline char* writeDecimalBefore(int64_t v, char* end) {
  if (v >= 0) return writeDecimalBefore(static_cast<uint64_t>(v), end);
  char* start = writeDecimalBefore(uint64_t{0} - static_cast<uint64_t>(v), end);
  *--start = '-';
  return start;
}

// Appends `v` in decimal to `out`, after `separator` if it is not '\0'.
template <typename Int>
void appendDecimal(std::string& out, Int v, char separator = '\0') {
  char text[kMaxDecimalChars + 1];  // not initialised: zeroing it cost more than the digits
  char* const end = text + sizeof text;
  char* start = writeDecimalBefore(v, end);
  if (separator != '\0') *--start = separator;
  out.append(start, static_cast<size_t>(end - start));
}

}  // namespace mtf
