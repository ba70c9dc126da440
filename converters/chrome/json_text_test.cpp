#include "converters/chrome/json_text.hpp"

#include <gtest/gtest.h>

namespace mtf::chrome {
namespace {

TEST(JsonText, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(jsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(JsonText, KeepsUtf8AndReplacesInvalidBytes) {
  bool replaced = true;
  EXPECT_EQ(jsonString("\xc3\xa9t\xc3\xa9", &replaced), "\"\xc3\xa9t\xc3\xa9\"");
  EXPECT_FALSE(replaced);
  EXPECT_EQ(jsonString("a\xff"
                       "b\xc3",
                       &replaced),
            "\"a\\ufffdb\\ufffd\"");
  EXPECT_TRUE(replaced);
  EXPECT_EQ(jsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");  // a lone surrogate
  EXPECT_EQ(jsonString("\xc0\xaf"), "\"\\ufffd\\ufffd\"");             // overlong '/'
}

TEST(JsonText, DoublesReadBackExactlyAndNonFiniteOnesAreRefused) {
  std::string out;
  EXPECT_TRUE(appendDouble(out, 0.1));
  EXPECT_EQ(out, "0.1");
  EXPECT_FALSE(appendDouble(out, 1.0 / 0.0));
  EXPECT_EQ(out, "0.1");
}

}  // namespace
}  // namespace mtf::chrome
