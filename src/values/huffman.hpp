// Canonical Huffman coding of byte strings, for the value columns' noisy time planes.
//
// Why not zlib's Huffman-only deflate: on those planes (2 to 7.875 bits per byte) it spent
// ~12 ns a byte, most of the chunk thread's deflate time; this coder spends 1.6 ns and
// codes 0.4% smaller (measured on the 14.2 MB of such planes of the 16 x 249 x 160
// wavefront: 0.023 s for 5,447,509 B against 0.166 s for 5,466,869 B). zstd level 1 was
// fast too (0.059 s) but 10% larger: 6,005,994 B with the shortest matches it allows.
//
// Coded form of n bytes (n is known to the caller):
//   128 bytes  the code length of each byte value 0..255, 4 bits each, low nibble first
//              (0 = the value does not occur; at most kHuffmanMaxBits)
//   bitstream  each byte's code in turn, least significant bit first; codes are canonical
//              (by length, then by byte value) and stored bit-reversed, so that the next
//              kHuffmanMaxBits bits of the stream index the decoding table; zero-padded
//              to a whole byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "values/byte_coding.hpp"

namespace mtf::values {

inline constexpr unsigned kHuffmanMaxBits = 12;  // a 4096-entry decoding table
inline constexpr size_t kHuffmanTableBytes = 128;

using ByteCounts = std::array<uint32_t, 256>;
// How often each byte value occurs in bytes[0, n).
ByteCounts countBytes(const uint8_t* bytes, size_t n);
// Order-0 entropy of the bytes counted in `counts` (n in all), in bits per byte, scaled
// by 256 (2048 = uniform noise).
uint32_t entropy256(const ByteCounts& counts, size_t n);

// Code lengths (at most kHuffmanMaxBits; 0 for absent values) of a Huffman code for
// `counts`: optimal when no code is longer than the limit, else shortened to fit it.
std::array<uint8_t, 256> huffmanLengths(const ByteCounts& counts);

// Appends the coded form of bytes[0, n) (whose counts are `counts`) to `out`.
void huffmanEncode(const uint8_t* bytes, size_t n, const ByteCounts& counts, ByteBuffer& out);

// Decodes exactly n (at least 1) bytes from coded[0, size) into out[0, n). Returns false, with out
// partly written, when the table is invalid (lengths over the limit, or more codes than
// the lengths allow), the stream holds a bit pattern that is no code, or the stream's
// length does not match n codes.
bool huffmanDecode(const uint8_t* coded, size_t size, uint8_t* out, size_t n);

}  // namespace mtf::values
