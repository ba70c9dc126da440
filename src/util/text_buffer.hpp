// A growing text buffer for the text writers' records: texts, characters and integers are
// written straight into its memory. (std::string checks and copies through a library call
// per piece, and its resize() zeroes what it adds.)
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include "util/decimal.hpp"

namespace mtf {

class TextBuffer {
 public:
  TextBuffer() = default;
  TextBuffer(TextBuffer&&) noexcept = default;
  TextBuffer& operator=(TextBuffer&&) noexcept = default;
  TextBuffer(const TextBuffer& other) { append(other.view()); }
  TextBuffer& operator=(const TextBuffer& other) {
    if (this != &other) {
      clear();
      append(other.view());
    }
    return *this;
  }

  void clear() { size_ = 0; }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  const char* data() const { return data_.get(); }
  std::string_view view() const { return {data_.get(), size_}; }
  operator std::string_view() const { return view(); }  // NOLINT: used as a text

  void push(char c) {
    room(1);
    data_[size_++] = c;
  }
  void append(std::string_view text) {
    room(text.size());
    if (!text.empty()) std::memcpy(data_.get() + size_, text.data(), text.size());
    size_ += text.size();
  }
  // `text`, whose memory stays readable for `readable` bytes from its start: a short
  // text by a fixed-size copy (no library call), as the digits below.
  void append(std::string_view text, size_t readable) {
    if (text.size() > kShort || readable < kShort) return append(text);
    room(kShort);
    std::memcpy(data_.get() + size_, text.data(), kShort);
    size_ += text.size();
  }
  // Another buffer's text (a formatted place or pair, appended again and again).
  void append(const TextBuffer& other) { append(other.view(), other.capacity_); }
  size_t capacity() const { return capacity_; }
  void reserve(size_t bytes) {
    if (capacity_ < bytes) grow(bytes - size_);
  }
  TextBuffer& operator+=(const TextBuffer& other) {
    append(other);
    return *this;
  }
  TextBuffer& operator+=(std::string_view text) {
    append(text);
    return *this;
  }
  TextBuffer& operator+=(char c) {
    push(c);
    return *this;
  }
  // Appends `v` in decimal, after `separator` unless it is '\0'. The digits are counted
  // first and written in place: digits written to a scratch buffer and copied on at once
  // made the copy's load wait for the digits' small stores (no store forwarding), which
  // cost more than the count.
  template <typename Int>
  void appendDecimal(Int v, char separator = '\0') {
    static_assert(std::is_integral_v<Int>);
    room(kMaxDecimalChars + 1);
    char* out = data_.get() + size_;
    if (separator != '\0') *out++ = separator;
    auto magnitude = static_cast<uint64_t>(v);
    if constexpr (std::is_signed_v<Int>) {
      if (v < 0) {
        *out++ = '-';
        magnitude = uint64_t{0} - magnitude;
      }
    }
    char* const end = out + decimalDigits(magnitude);
    writeDecimalBefore(magnitude, end);
    size_ = static_cast<size_t>(end - data_.get());
  }

 private:
  static constexpr size_t kShort = 64;  // texts copied at a fixed size
  void room(size_t bytes) {
    if (capacity_ - size_ < bytes) grow(bytes);
  }
  // Out of line: inlined, its call and loop made every append save and restore registers
  // (half the instructions of a 64-byte append).
  [[gnu::noinline]] void grow(size_t bytes) {
    size_t capacity = capacity_ < kShort ? kShort : capacity_;
    while (capacity - size_ < bytes) capacity *= 2;
    std::unique_ptr<char[]> grown(new char[capacity]);
    if (size_ > 0) std::memcpy(grown.get(), data_.get(), size_);
    data_ = std::move(grown);
    capacity_ = capacity;
  }
  std::unique_ptr<char[]> data_;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace mtf
