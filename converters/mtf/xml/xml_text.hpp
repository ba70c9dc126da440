// Text helpers of MTF XML: base64 for binary payloads, and the test that decides whether a
// string can be written as XML character data unchanged (else it is written as base64).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mtf::xml {

std::string base64Encode(std::string_view bytes);
// nullopt if `text` is not base64 (whitespace between groups is allowed).
std::optional<std::string> base64Decode(std::string_view text);

// True if `text` is valid UTF-8 made only of characters XML 1.0 allows and that a parser
// gives back unchanged in element content (no CR, no control characters). Strings of
// traces are bytes: anything else must go through base64 to round-trip.
bool isPlainXmlText(std::string_view text);

// Decimal parsing that refuses anything but digits (and a leading '-' for signed).
std::optional<uint64_t> parseUnsigned(std::string_view text);
std::optional<int64_t> parseSigned(std::string_view text);

}  // namespace mtf::xml
