#include "util/text_buffer.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "util/to_chars_string.hpp"

namespace mtf {
namespace {

TEST(TextBuffer, IntegersOfEveryLengthAndSignAsToChars) {
  std::mt19937_64 random(16);
  TextBuffer buffer;
  std::string same;  // the same appends through std::string
  for (int i = 0; i < 20000; ++i) {
    const uint64_t v = random() >> (random() % 64);
    const auto s = static_cast<int64_t>(v) >> (random() % 2);
    buffer.appendDecimal(v, ':');
    same += ':' + toCharsString(v);
    buffer.appendDecimal(-s);
    same += toCharsString(-s);
    buffer.push('|');
    same += '|';
  }
  for (uint64_t v : {uint64_t{0}, std::numeric_limits<uint64_t>::max()}) {
    buffer.appendDecimal(v, ';');
    same += ';' + toCharsString(v);
  }
  buffer.appendDecimal(std::numeric_limits<int64_t>::min());
  same += toCharsString(std::numeric_limits<int64_t>::min());
  ASSERT_EQ(buffer.view(), same);
}

TEST(TextBuffer, GrowsKeepingItsTextAndClearsForReuse) {
  TextBuffer buffer;
  EXPECT_TRUE(buffer.empty());
  std::string same;
  for (int i = 0; i < 1000; ++i) {
    const std::string piece(static_cast<size_t>(i % 97), static_cast<char>('a' + i % 26));
    buffer += piece;
    same += piece;
    buffer.appendDecimal(uint32_t(i), ':');
    same += ':' + std::to_string(i);
  }
  EXPECT_EQ(std::string(buffer.view()), same);
  buffer.clear();
  EXPECT_TRUE(buffer.empty());
  buffer += "2:";
  buffer.appendDecimal(int64_t{-5});
  EXPECT_EQ(buffer.view(), "2:-5");
  TextBuffer moved = std::move(buffer);
  EXPECT_EQ(moved.view(), "2:-5");
}

TEST(TextBuffer, AppendsOtherBuffersShortAndLongAndCopies) {
  TextBuffer place;
  place.appendDecimal(uint64_t{12}, '\0');
  place += ":1:3:1";
  TextBuffer longer;
  for (int i = 0; i < 10; ++i) longer.appendDecimal(uint64_t{1234567} * i, ':');
  TextBuffer line;
  std::string same;
  for (int i = 0; i < 500; ++i) {
    line += place;
    same += std::string(place.view());
    line += longer;
    same += std::string(longer.view());
    line.appendDecimal(uint64_t(i), ':');
    same += ':' + std::to_string(i);
  }
  EXPECT_EQ(std::string(line.view()), same);
  TextBuffer copy = place;
  copy += "x";
  EXPECT_EQ(copy.view(), "12:1:3:1x");
  EXPECT_EQ(place.view(), "12:1:3:1");
  copy = longer;
  EXPECT_EQ(copy.view(), longer.view());
}

}  // namespace
}  // namespace mtf
