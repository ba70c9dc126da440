#include "values/sparse_plane.hpp"

#include <cstring>

namespace mtf::values {

void sparseEncode(const uint8_t* bytes, size_t n, size_t nonZero, ByteBuffer& out) {
  putVarint(out, nonZero);
  size_t next = 0;  // the index after the previous listed byte
  auto list = [&](size_t i) {
    putVarint(out, i - next);
    out.push_back(bytes[i]);
    next = i + 1;
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {  // eight zero bytes at a time: nearly all of them
    uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    if (word == 0) continue;
    for (size_t k = i; k < i + 8; ++k)
      if (bytes[k]) list(k);
  }
  for (; i < n; ++i)
    if (bytes[i]) list(i);
}

bool sparseDecode(const uint8_t* list, size_t size, uint8_t* out, size_t n) {
  if (n > 0) std::memset(out, 0, n);  // an empty plane may have no buffer at all
  try {
    ByteReader r(list, size);
    const uint64_t count = r.count(n, "listed bytes");
    uint64_t next = 0;
    for (uint64_t c = 0; c < count; ++c) {
      const uint64_t gap = r.varint();
      if (gap >= n - next) return false;  // also when next == n
      next += gap;
      const uint8_t value = r.byte();
      if (value == 0) return false;
      out[next++] = value;
    }
    return r.atEnd();
  } catch (const CodingError&) {
    return false;
  }
}

}  // namespace mtf::values
