// Times of --begin/--end: every unit, exact decimal arithmetic (no double), relative
// times, and the errors; the window they make on a trace's clock.
#include "filter/time_spec.hpp"

#include <gtest/gtest.h>

#include "filter/cut_request.hpp"

namespace mtf::filter {
namespace {

Tick at(const std::string& text, uint64_t resolution = 1'000'000'000, Tick start = 0) {
  return resolveTime(parseTimeSpec(text, "--begin"), resolution, start);
}

TEST(TimeSpec, EveryUnitOnANanosecondClock) {
  EXPECT_EQ(at("1.25"), 1'250'000'000u);
  EXPECT_EQ(at("1.25s"), 1'250'000'000u);
  EXPECT_EQ(at("800ms"), 800'000'000u);
  EXPECT_EQ(at("40us"), 40'000u);
  EXPECT_EQ(at("100ns"), 100u);
  EXPECT_EQ(at("123456t"), 123456u);
  EXPECT_EQ(at(".5"), 500'000'000u);
  EXPECT_EQ(at("3."), 3'000'000'000u);
}

TEST(TimeSpec, ExactWhereADoubleIsNot) {
  // 0.3 s at 10^18 ticks per second: a double gives 299999999999999999 or so.
  EXPECT_EQ(at("0.3", 1'000'000'000'000'000'000u), 300'000'000'000'000'000u);
  EXPECT_EQ(at("4.35", 100), 435u);  // 4.35 * 100 = 434.99999999999994 in doubles
  EXPECT_EQ(at("0.000000001", 1'000'000'000), 1u);
  EXPECT_EQ(at("9007199254740993t"), 9007199254740993u);  // 2^53 + 1
}

TEST(TimeSpec, BetweenTwoTicksFallsOnTheEarlier) {
  EXPECT_EQ(at("1.5us", 1'000'000), 1u);
  EXPECT_EQ(at("999ms", 1), 0u);
  EXPECT_EQ(at("2.0t"), 2u);  // a zero fraction is no fraction
}

TEST(TimeSpec, RelativeToTheTraceStart) {
  EXPECT_EQ(at("+2.5s", 1000, 7000), 9500u);
  EXPECT_EQ(at("+10t", 1000, 7000), 7010u);
  EXPECT_EQ(at("2.5s", 1000, 7000), 2500u);  // absolute: the start is not added
}

TEST(TimeSpec, LeadingAndTrailingZerosDoNotCountAsDigits) {
  EXPECT_EQ(at("0000000000000000000001.1000000000000000000000"), 1'100'000'000u);
}

TEST(TimeSpec, BadTextIsRefusedWithItsReason) {
  for (const char* bad : {"", "s", "+", "1.2.3", "12min", "1,5", "-1", "1e3", "1.5t", "abc",
                          "123456789012345678901234567890123456789"}) {
    try {
      at(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const TimeSpecError& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
      EXPECT_NE(std::string(e.what()).find("--begin"), std::string::npos) << e.what();
    }
  }
}

TEST(TimeSpec, BeyondSixtyFourBitsIsRefused) {
  EXPECT_THROW(at("+18446744073709551615t", 1, 1), TimeSpecError);  // + start overflows
  EXPECT_THROW(at("1000000000000s", 1'000'000'000'000), TimeSpecError);
  EXPECT_EQ(at("18446744073709551615t"), 18446744073709551615u);
  EXPECT_THROW(at("18446744073709551616t"), TimeSpecError);
  EXPECT_THROW(at("99999999999999999999999999999999999999", 1'000'000'000), TimeSpecError);
  EXPECT_EQ(at("0.0000000000000000000000000001s"), 0u);
}

}  // namespace
}  // namespace mtf::filter

namespace mtf::filter {
namespace {

TimeWindow window(const std::string& begin, const std::string& end) {
  ClockProperties clock;
  clock.resolution = 1000;  // ms ticks
  clock.globalOffset = 1000;
  clock.traceLength = 5000;  // the trace: ticks 1000 to 6000
  CutRequest r;
  r.begin = begin;
  r.end = end;
  return resolveWindow(r, clock);
}

TEST(Window, OpenSidesKeepEverythingOnThatSide) {
  EXPECT_EQ(window("+100t", "").from, 1100u);
  EXPECT_EQ(window("+100t", "").to, ~Tick{0});
  EXPECT_EQ(window("", "+1.5s").from, 0u);
  EXPECT_EQ(window("", "+1.5s").to, 2500u);
  EXPECT_EQ(window("2s", "6.001s").to, 6001u);
}

TEST(Window, OutsideTheTraceOrEmptyIsRefused) {
  EXPECT_THROW(window("6001t", ""), TimeSpecError);  // after the last tick
  EXPECT_THROW(window("", "1000t"), TimeSpecError);  // ends at the first tick: nothing
  EXPECT_THROW(window("3s", "2s"), TimeSpecError);
  EXPECT_THROW(window("2s", "2s"), TimeSpecError);
  EXPECT_THROW(window("", "0t"), TimeSpecError);
  EXPECT_NO_THROW(window("6000t", ""));  // the last tick
  EXPECT_NO_THROW(window("", "1001t"));  // the first tick
}

}  // namespace
}  // namespace mtf::filter
