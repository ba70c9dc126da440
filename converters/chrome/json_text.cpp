#include "converters/chrome/json_text.hpp"

#include <cmath>

namespace mtf::chrome {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if it is not valid.
size_t utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0)
    length = 2, code = lead & 0x1F;
  else if ((lead & 0xF0) == 0xE0)
    length = 3, code = lead & 0x0F;
  else if ((lead & 0xF8) == 0xF0)
    length = 4, code = lead & 0x07;
  else
    return 0;
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

void appendEscaped(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\r':
      out += "\\r";
      return;
    default:
      break;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u00";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

}  // namespace

bool appendJsonString(std::string& out, std::string_view text) {
  bool valid = true;
  out += '"';
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == '"' || c == '\\') {
      appendEscaped(out, c);
      ++i;
      continue;
    }
    const size_t length = utf8Length(text, i);
    if (length == 0) {
      out += "\\ufffd";
      valid = false;
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  out += '"';
  return valid;
}

std::string jsonString(std::string_view text, bool* replaced) {
  std::string out;
  const bool valid = appendJsonString(out, text);
  if (replaced) *replaced = !valid;
  return out;
}

bool appendDouble(std::string& out, double value) {
  if (!std::isfinite(value)) return false;
  char digits[32];
  const auto result = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, result.ptr);
  return true;
}

}  // namespace mtf::chrome
