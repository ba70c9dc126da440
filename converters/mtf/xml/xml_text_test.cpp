#include "converters/mtf/xml/xml_text.hpp"

#include <gtest/gtest.h>

namespace mtf::xml {
namespace {

TEST(XmlText, Base64KnownVectors) {  // RFC 4648 section 10
  EXPECT_EQ(base64Encode(""), "");
  EXPECT_EQ(base64Encode("f"), "Zg==");
  EXPECT_EQ(base64Encode("fo"), "Zm8=");
  EXPECT_EQ(base64Encode("foo"), "Zm9v");
  EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
}

TEST(XmlText, Base64RoundTripsEveryByteAndLength) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (size_t length = 0; length <= bytes.size(); length += 1) {
    const std::string part = bytes.substr(bytes.size() - length);
    const auto decoded = base64Decode(base64Encode(part));
    ASSERT_TRUE(decoded.has_value()) << length;
    EXPECT_EQ(*decoded, part) << length;
  }
}

TEST(XmlText, Base64AcceptsWhitespaceAndRefusesGarbage) {
  EXPECT_EQ(base64Decode("Zm9v\n YmFy").value(), "foobar");
  EXPECT_FALSE(base64Decode("Zm9").has_value());       // not a multiple of 4
  EXPECT_FALSE(base64Decode("Zm9*").has_value());      // not in the alphabet
  EXPECT_FALSE(base64Decode("Zg==Zg==").has_value());  // data after padding
  EXPECT_FALSE(base64Decode("Z===").has_value());      // too much padding
}

TEST(XmlText, PlainTextTest) {
  EXPECT_TRUE(isPlainXmlText(""));
  EXPECT_TRUE(isPlainXmlText("main()\n\tx < y & z"));
  EXPECT_TRUE(isPlainXmlText("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));  // é € 😀
  EXPECT_FALSE(isPlainXmlText("a\rb"));  // a parser turns CR into LF
  EXPECT_FALSE(isPlainXmlText(std::string("a\0b", 3)));
  EXPECT_FALSE(isPlainXmlText("\x01"));
  EXPECT_FALSE(isPlainXmlText("\xff"));          // not UTF-8
  EXPECT_FALSE(isPlainXmlText("\xC3"));          // truncated sequence
  EXPECT_FALSE(isPlainXmlText("\xC0\xAF"));      // overlong
  EXPECT_FALSE(isPlainXmlText("\xED\xA0\x80"));  // surrogate
  EXPECT_FALSE(isPlainXmlText("\xEF\xBF\xBF"));  // U+FFFF
}

TEST(XmlText, NumbersAreStrict) {
  EXPECT_EQ(parseUnsigned("18446744073709551615").value(), ~uint64_t{0});
  EXPECT_FALSE(parseUnsigned("18446744073709551616").has_value());
  EXPECT_FALSE(parseUnsigned("-1").has_value());
  EXPECT_FALSE(parseUnsigned("+1").has_value());
  EXPECT_FALSE(parseUnsigned("12 ").has_value());
  EXPECT_FALSE(parseUnsigned("").has_value());
  EXPECT_EQ(parseSigned("-9223372036854775808").value(), INT64_MIN);
  EXPECT_FALSE(parseSigned("1x").has_value());
}

}  // namespace
}  // namespace mtf::xml
