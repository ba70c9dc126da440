#include "util/decimal.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "util/to_chars_string.hpp"

namespace mtf {
namespace {

TEST(Decimal, EdgeValuesAsToChars) {
  for (uint64_t v : {uint64_t{0}, uint64_t{9}, uint64_t{10}, uint64_t{99}, uint64_t{100},
                     uint64_t{101}, uint64_t{999}, uint64_t{1000}, uint64_t{9921875171},
                     std::numeric_limits<uint64_t>::max()}) {
    std::string out = "x";
    appendDecimal(out, v);
    EXPECT_EQ(out, "x" + toCharsString(v));
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{-10}, int64_t{-99}, int64_t{123},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    std::string out;
    appendDecimal(out, v);
    EXPECT_EQ(out, toCharsString(v));
  }
}

TEST(Decimal, SeparatorGoesBefore) {
  std::string out = "2";
  appendDecimal(out, uint64_t{16210}, ':');
  appendDecimal(out, int64_t{-7}, ':');
  EXPECT_EQ(out, "2:16210:-7");
}

TEST(Decimal, DigitCountsAtEveryPowerOfTen) {
  EXPECT_EQ(decimalDigits(0), 1u);
  uint64_t power = 1;
  for (unsigned digits = 1; digits <= 20; ++digits) {
    EXPECT_EQ(decimalDigits(power), digits) << power;
    if (power > 1) {
      EXPECT_EQ(decimalDigits(power - 1), digits - 1) << power - 1;
    }
    if (digits < 20) power *= 10;
  }
  EXPECT_EQ(decimalDigits(std::numeric_limits<uint64_t>::max()), 20u);
  std::mt19937_64 random(27);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = random() >> (random() % 64);
    ASSERT_EQ(decimalDigits(v), toCharsString(v).size()) << v;
  }
}

TEST(Decimal, RandomValuesOfEveryLengthAsToChars) {
  std::mt19937_64 random(30);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t v = random() >> (random() % 64);
    std::string out;
    appendDecimal(out, v);
    ASSERT_EQ(out, toCharsString(v)) << v;
    std::string negative;
    appendDecimal(negative, -static_cast<int64_t>(v >> 1));
    ASSERT_EQ(negative, toCharsString(-static_cast<int64_t>(v >> 1)));
  }
}

}  // namespace
}  // namespace mtf
