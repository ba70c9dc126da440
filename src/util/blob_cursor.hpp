// Reading an analysis blob (an annotation's bytes: NLR loops, the program model) field by
// field, refusing what is damaged with an InputError naming the source, the byte offset
// and the blob ("loop annotation: truncated").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "model/types.hpp"
#include "util/error.hpp"

namespace mtf {

// Writing a blob: LEB128 varints, zigzag signed values, references as id + 1 (0:
// undefined), strings as length + bytes. BlobCursor reads them back.
inline void putBlobVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}
inline void putBlobString(std::string& out, std::string_view s) {
  putBlobVarint(out, s.size());
  out += s;
}
inline uint64_t blobZigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t blobUnzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline uint64_t blobRef(Ref r) {
  return r == kUndefinedRef ? 0 : uint64_t{r} + 1;
}

class BlobCursor {
 public:
  // `blob` and `source` must outlive the cursor; `what` prefixes every message.
  BlobCursor(std::string_view blob, const std::string& source, std::string what)
      : blob_(blob), source_(source), what_(std::move(what)) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw InputError(source_, placeByte(pos_), what_ + ": " + problem);
  }
  // An unsigned LEB128 varint of at most 64 bits.
  uint64_t varint() {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (pos_ >= blob_.size()) fail("truncated");
      const auto byte = static_cast<uint8_t>(blob_[pos_++]);
      v |= uint64_t{byte & 0x7Fu} << shift;
      if (!(byte & 0x80)) return v;
    }
    fail("varint too long");
  }
  // A count of items each taking at least one byte: never more than the bytes left.
  size_t count() {
    const uint64_t n = varint();
    if (n > blob_.size() - pos_) fail("count " + std::to_string(n) + " exceeds the bytes left");
    return static_cast<size_t>(n);
  }
  // A reference stored as id + 1 (0: undefined).
  Ref ref() {
    const uint64_t v = varint();
    if (v > uint64_t{kUndefinedRef}) fail("reference out of range");
    return v == 0 ? kUndefinedRef : static_cast<Ref>(v - 1);
  }
  // A string written by putBlobString.
  std::string_view string() {
    const size_t n = count();
    const std::string_view s = blob_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  bool atEnd() const { return pos_ == blob_.size(); }

 protected:
  std::string_view blob_;
  const std::string& source_;
  std::string what_;
  size_t pos_ = 0;
};

}  // namespace mtf
