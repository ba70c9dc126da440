// zlib compression with RAII around z_stream, plus CRC32.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtf::compaction {

// Compresses `size` bytes into a zlib stream (level 1..9).
std::vector<uint8_t> zlibCompress(const uint8_t* data, size_t size, int level = 6);
// Decompresses a zlib stream that must inflate to exactly `expectedSize` bytes; returns
// false (out untouched or partial) if the stream is corrupt or has another size.
bool zlibDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    std::vector<uint8_t>& out);
uint32_t crc32Of(const uint8_t* data, size_t size);

}  // namespace mtf::compaction
