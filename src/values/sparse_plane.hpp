// A byte plane of nearly all zeros (the high bytes of the time residuals: only a long
// pause needs them) coded as the list of its other bytes: varint(count), then per byte
// varint(gap) u8(value), where gap is the number of zero bytes since the previous listed
// byte (or since the start), and value is never 0.
//
// Why not zlib's run-length deflate of the plane: on the 16 x 249 x 160 wavefront the
// list, deflated, is half the size (67,101 B against 134,156 B for 14.2 MB of such
// planes) and takes half the time (0.008 s against 0.015 s).
#pragma once

#include <cstddef>
#include <cstdint>

#include "values/byte_coding.hpp"

namespace mtf::values {

// Appends the list of bytes[0, n), `nonZero` of which are not 0, to `out`.
void sparseEncode(const uint8_t* bytes, size_t n, size_t nonZero, ByteBuffer& out);

// Decodes exactly n bytes from list[0, size) into out[0, n). False if the list is
// corrupt: it runs past n bytes or past its end, lists a zero, or has bytes left over.
bool sparseDecode(const uint8_t* list, size_t size, uint8_t* out, size_t n);

}  // namespace mtf::values
