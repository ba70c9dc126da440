// An integer as std::to_chars writes it: the reference the hand-written formatters
// (util/decimal.hpp, util/text_buffer.hpp) are tested against.
#pragma once

#include <charconv>
#include <string>

namespace mtf {

template <typename Int>
std::string toCharsString(Int v) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

}  // namespace mtf
