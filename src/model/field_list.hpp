// An event's fields: up to kInline values inside the event itself, more on the heap.
// Nearly every event has at most five fields, so a batch of events is one contiguous
// block of memory that the thread consuming it reads in a stream (with a std::vector,
// every event's fields were a heap block of their own, a second cache line to wait for).
// The interface is the part of std::vector's that events use.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace mtf {

class FieldList {
 public:
  using value_type = uint64_t;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = uint64_t&;
  using const_reference = const uint64_t&;
  using pointer = uint64_t*;
  using const_pointer = const uint64_t*;
  using iterator = uint64_t*;
  using const_iterator = const uint64_t*;
  static constexpr size_t kInline = 5;

  FieldList() noexcept {}
  FieldList(std::initializer_list<uint64_t> values) { assign(values.begin(), values.end()); }
  template <std::input_iterator It>
  FieldList(It first, It last) {
    assign(first, last);
  }
  // Implicit, as assigning a std::vector to the fields was before.
  FieldList(const std::vector<uint64_t>& values) { assign(values.begin(), values.end()); }
  FieldList(const FieldList& other) { assign(other.begin(), other.end()); }
  FieldList(FieldList&& other) noexcept { take(other); }
  FieldList& operator=(const FieldList& other) {
    if (this != &other) assign(other.begin(), other.end());  // keeps the capacity
    return *this;
  }
  FieldList& operator=(FieldList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  FieldList& operator=(std::initializer_list<uint64_t> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~FieldList() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  uint64_t* data() { return onHeap() ? heap_ : inline_; }
  const uint64_t* data() const { return onHeap() ? heap_ : inline_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  uint64_t& operator[](size_t i) { return data()[i]; }
  const uint64_t& operator[](size_t i) const { return data()[i]; }
  uint64_t& front() { return data()[0]; }
  const uint64_t& front() const { return data()[0]; }
  uint64_t& back() { return data()[size_ - 1]; }
  const uint64_t& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }  // keeps the capacity
  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void push_back(uint64_t value) {
    if (size_ == capacity_) [[unlikely]]
      grow(size_ + 1);
    data()[size_++] = value;
  }
  void resize(size_t n, uint64_t value = 0) {
    reserve(n);
    if (n > size_) std::fill(data() + size_, data() + n, value);
    size_ = static_cast<uint32_t>(n);
  }
  void assign(size_t n, uint64_t value) {
    size_ = 0;
    resize(n, value);
  }
  void assign(std::initializer_list<uint64_t> values) { assign(values.begin(), values.end()); }
  template <std::input_iterator It>
  void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    reserve(n);
    std::copy(first, last, data());
    size_ = static_cast<uint32_t>(n);
  }
  iterator insert(const_iterator at, uint64_t value) { return insert(at, &value, &value + 1); }
  template <std::input_iterator It>
  iterator insert(const_iterator at, It first, It last) {
    const size_t index = static_cast<size_t>(at - begin());
    const size_t n = static_cast<size_t>(std::distance(first, last));
    reserve(size_ + n);
    uint64_t* d = data();
    std::copy_backward(d + index, d + size_, d + size_ + n);
    std::copy(first, last, d + index);
    size_ += static_cast<uint32_t>(n);
    return d + index;
  }

  friend bool operator==(const FieldList& a, const FieldList& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const FieldList& a, const std::vector<uint64_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool onHeap() const { return capacity_ > kInline; }
  // Capacity at least n, and at least twice the current one: out of the callers' hot paths.
  [[gnu::noinline]] void grow(size_t n) {
    const size_t capacity = std::max<size_t>(n, size_t{capacity_} * 2);
    uint64_t* bigger = new uint64_t[capacity];
    std::copy(data(), data() + size_, bigger);
    release();
    heap_ = bigger;
    capacity_ = static_cast<uint32_t>(capacity);
  }
  void release() {
    if (onHeap()) delete[] heap_;
  }
  void take(FieldList& other) noexcept {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.onHeap())
      heap_ = other.heap_;
    else
      std::copy(other.inline_, other.inline_ + other.size_, inline_);
    other.size_ = 0;
    other.capacity_ = kInline;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;
  union {
    uint64_t inline_[kInline];
    uint64_t* heap_;
  };
};

}  // namespace mtf
