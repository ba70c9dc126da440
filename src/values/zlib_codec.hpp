// zlib compression with RAII around z_stream, plus CRC32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "values/byte_coding.hpp"

namespace mtf::values {

// Compresses `size` bytes into a zlib stream (level 1..9).
std::vector<uint8_t> zlibCompress(const uint8_t* data, size_t size, int level = 6);

// A zlib stream (RFC 1950), or a raw deflate stream (RFC 1951: column coding 2).
enum class ZlibFormat : uint8_t { Zlib, RawDeflate };
// Decompresses a stream that must inflate to exactly `expectedSize` bytes; returns
// false (out untouched or partial) if the stream is corrupt or has another size.
bool zlibDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    std::vector<uint8_t>& out, ZlibFormat format = ZlibFormat::Zlib);
uint32_t crc32Of(const uint8_t* data, size_t size);

}  // namespace mtf::values
