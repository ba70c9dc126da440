// Byte-level coding shared by the compaction columns and the MTF binary archive:
// zigzag, LEB128 varints, and a bounds-checked reader that never reads past its end.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mtf::values {

inline uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// An allocator whose construct() without arguments leaves the element uninitialised: a
// vector using it grows (resize) without zero-filling bytes that are about to be
// overwritten. Everything else is std::allocator's.
template <class T>
struct NoZeroFillAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = NoZeroFillAllocator<U>;
  };
  NoZeroFillAllocator() = default;
  template <class U>
  NoZeroFillAllocator(const NoZeroFillAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
// A vector whose resize() leaves new elements indeterminate (write them before reading).
template <class T>
using NoZeroFillVector = std::vector<T, NoZeroFillAllocator<T>>;
using ByteBuffer = NoZeroFillVector<uint8_t>;

template <class Alloc>  // std::vector<uint8_t> and ByteBuffer
inline void putVarint(std::vector<uint8_t, Alloc>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<uint8_t>(v));
}
// The same into a buffer with room for kMaxVarintBytes; returns the end of the varint.
constexpr size_t kMaxVarintBytes = 10;
inline uint8_t* putVarint(uint8_t* out, uint64_t v) {
  while (v >= 0x80) {
    *out++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<uint8_t>(v);
  return out;
}
inline void putFixed64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void putFixed32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void putString(std::vector<uint8_t>& out, std::string_view s) {
  putVarint(out, s.size());
  out.insert(out.end(), s.begin(), s.end());
}

// Reads from [data, data+size). Every read checks the bounds; on a violation it throws
// a CodingError (callers turn it into an InputError naming the chunk or byte).
struct CodingError {
  uint64_t offset;  // offset within the buffer where the bad item starts
  std::string what;
};

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  explicit ByteReader(const std::vector<uint8_t>& v) : ByteReader(v.data(), v.size()) {}

  bool atEnd() const { return pos_ == size_; }
  size_t position() const { return pos_; }
  size_t remaining() const { return size_ - pos_; }

  uint64_t varint() {
    uint64_t v = 0;
    const size_t start = pos_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ == size_) throw CodingError{start, "varint runs past the end"};
      const uint8_t b = data_[pos_++];
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    throw CodingError{start, "varint longer than 10 bytes"};
  }
  // A varint that must not exceed `limit` (a count about to size an allocation).
  uint64_t count(uint64_t limit, const char* what) {
    const size_t start = pos_;
    const uint64_t v = varint();
    if (v > limit)
      throw CodingError{start, std::string(what) + " too large (" + std::to_string(v) + ")"};
    return v;
  }
  uint64_t fixed64() {
    need(8);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 8;
    return v;
  }
  uint32_t fixed32() {
    need(4);
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += 4;
    return v;
  }
  uint8_t byte() {
    need(1);
    return data_[pos_++];
  }
  std::string string() {
    // The bound is taken after the length's own varint: bytes the varint used are not
    // left for the string.
    const size_t start = pos_;
    const uint64_t n = varint();
    if (n > remaining())
      throw CodingError{start, "string length too large (" + std::to_string(n) + ")"};
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  const uint8_t* take(size_t n) {
    need(n);
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }

 private:
  void need(size_t n) {
    if (size_ - pos_ < n) throw CodingError{pos_, "record runs past the end"};
  }
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace mtf::values

// The value coders moved here from compaction; the compaction stage and the archive codecs
// still name them compaction::X (one using-directive rather than edits in every caller).
namespace mtf::compaction {
using namespace mtf::values;
}  // namespace mtf::compaction
