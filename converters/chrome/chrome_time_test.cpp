#include "converters/chrome/chrome_time.hpp"

#include <gtest/gtest.h>

namespace mtf::chrome {
namespace {

std::string micros(int64_t ns) {
  std::string out;
  MicroClock::appendMicros(out, ns);
  return out;
}

TEST(ChromeTime, PrintsMicrosecondsWithThreeDecimals) {
  EXPECT_EQ(micros(0), "0.000");
  EXPECT_EQ(micros(7), "0.007");
  EXPECT_EQ(micros(1234), "1.234");
  EXPECT_EQ(micros(1'000'000'010), "1000000.010");
  EXPECT_EQ(micros(-1), "-0.001");
  EXPECT_EQ(micros(-123'456), "-123.456");
  EXPECT_EQ(micros(INT64_MIN), "-9223372036854775.808");
}

TEST(ChromeTime, NanosecondTicksAreExactFromTheOrigin) {
  MicroClock clock(1'000'000'000, 1'000'000'000'000'000'000ull);
  EXPECT_EQ(clock.nanoseconds(1'000'000'000'000'000'001ull), 1);
  EXPECT_EQ(clock.nanoseconds(999'999'999'999'999'999ull), -1);
  EXPECT_EQ(clock.rounded(), 0u);
  EXPECT_EQ(clock.beyondDoublePrecision(), 0u);
}

TEST(ChromeTime, CoarseResolutionsScaleExactly) {
  MicroClock clock(1'000'000, 0);  // microsecond ticks (TAU)
  EXPECT_EQ(clock.nanoseconds(3), 3000);
  MicroClock picos(1'000'000'000'000ull, 0);  // finer than a nanosecond: rounded, counted
  EXPECT_EQ(picos.nanoseconds(1'499), 1);
  EXPECT_EQ(picos.nanoseconds(1'500), 2);
  EXPECT_EQ(picos.nanoseconds(2'000), 2);
  EXPECT_EQ(picos.rounded(), 2u);
}

TEST(ChromeTime, OddResolutionsRoundToTheNearestNanosecondWithoutDoubles) {
  MicroClock clock(2'600'000'000ull, 0);  // a 2.6 GHz cycle counter
  // 2^60 cycles: a double would lose the last digits; 128-bit integers do not.
  const uint64_t ticks = uint64_t{1} << 60;
  const unsigned __int128 exact = static_cast<unsigned __int128>(ticks) * 1'000'000'000u;
  EXPECT_EQ(clock.nanoseconds(ticks),
            static_cast<int64_t>((exact + 1'300'000'000u) / 2'600'000'000u));
  EXPECT_EQ(clock.rounded(), 1u);
  EXPECT_EQ(clock.beyondDoublePrecision(), 1u);
}

}  // namespace
}  // namespace mtf::chrome
