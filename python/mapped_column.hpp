// A column of the events DataFrame in an anonymous mapping of its own: filled in place,
// grown without a copy or a second page fault per page (mremap), handed to numpy as it
// is. No transparent huge pages (madvise MADV_HUGEPAGE, as numpy does for its arrays):
// measured on the 14 M-event wavefront (638 MB), they cut the page faults from 156,000 to
// 2,800 but the kernel's compaction for them made the call 1.5x to 3x slower in CPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace mtf::python {

// Bytes in an anonymous private mapping (RAII: unmapped by the destructor).
class MappedBytes {
 public:
  MappedBytes() = default;
  // At least `bytes` (one page if 0), zero-filled by the kernel as they are touched.
  explicit MappedBytes(size_t bytes);
  MappedBytes(MappedBytes&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), capacity_(std::exchange(other.capacity_, 0)) {}
  MappedBytes& operator=(MappedBytes&& other) noexcept;
  MappedBytes(const MappedBytes&) = delete;
  MappedBytes& operator=(const MappedBytes&) = delete;
  ~MappedBytes();

  std::byte* data() const { return data_; }
  size_t capacity() const { return capacity_; }
  // Room for at least `bytes` (the mapping may move; what it held moves with it).
  void grow(size_t bytes);
  // Gives back the pages beyond the first `bytes` (at least one page stays).
  void shrink(size_t bytes);

 private:
  std::byte* data_ = nullptr;
  size_t capacity_ = 0;
};

// Values of type T, appended a block at a time into MappedBytes.
template <typename T>
class MappedColumn {
 public:
  explicit MappedColumn(size_t expected) : bytes_(expected * sizeof(T)) {}
  size_t size() const { return size_; }
  const T* data() const { return reinterpret_cast<const T*>(bytes_.data()); }
  T* data() { return reinterpret_cast<T*>(bytes_.data()); }
  // Room for `n` more values: the place of the first, valid until the next call.
  T* extend(size_t n) {
    const size_t needed = (size_ + n) * sizeof(T);
    if (needed > bytes_.capacity()) bytes_.grow(std::max(needed, 2 * bytes_.capacity()));
    T* at = data() + size_;
    size_ += n;
    return at;
  }
  // `n` values converted to T (region, comm: kNoRef wraps to -1, bit for bit; partners
  // fit int32).
  template <typename From>
  void append(const From* values, size_t n) {
    convert(extend(n), values, n);
  }
  // The place of values [first, first + n), which must lie within size(): writers on
  // several threads, each writing values of its own, are safe (nothing moves).
  T* at(size_t first, size_t n) {
    if (first > size_ || n > size_ - first) throw std::out_of_range("rows beyond the column");
    return data() + first;
  }
  // `n` values, converted as append() does, to [first, first + n) (see at()).
  template <typename From>
  void write(size_t first, const From* values, size_t n) {
    convert(at(first, n), values, n);
  }
  // The bytes, trimmed to the values, leaving this column empty.
  MappedBytes release() {
    bytes_.shrink(size_ * sizeof(T));
    size_ = 0;
    return std::move(bytes_);
  }

 private:
  template <typename From>
  static void convert(T* to, const From* values, size_t n) {
    if constexpr (sizeof(T) == sizeof(From) && std::is_integral_v<T> && std::is_integral_v<From>)
      std::memcpy(to, values, n * sizeof(T));
    else
      for (size_t i = 0; i < n; ++i) to[i] = static_cast<T>(values[i]);
  }

  MappedBytes bytes_;
  size_t size_ = 0;
};

}  // namespace mtf::python
