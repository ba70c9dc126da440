// Small JSON text helpers for the Chrome writer: strings (escaped, valid UTF-8) and
// integers appended to a buffer without temporary strings.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace mtf::chrome {

// Appends `text` as a JSON string literal (quotes included). Bytes that are not valid
// UTF-8 become U+FFFD; returns false if any did.
bool appendJsonString(std::string& out, std::string_view text);

// The literal of `text` ready to paste (for names written many times).
std::string jsonString(std::string_view text, bool* replaced = nullptr);

template <typename Int>
void appendInt(std::string& out, Int value) {
  char digits[24];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, result.ptr);
}

// A double as JSON: shortest text that reads back as the same double; false (and
// nothing appended) for NaN and infinities, which JSON cannot hold.
bool appendDouble(std::string& out, double value);

}  // namespace mtf::chrome
