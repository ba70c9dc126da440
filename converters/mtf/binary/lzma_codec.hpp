// LZMA2 (liblzma) for the archive's structure chunk (version 3): a raw LZMA2 stream
// preceded by one byte, the LZMA2 filter property that gives its dictionary size
// (docs/mtf-format.md section 3). RAII around lzma_stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtf::mtfbin {

// Compresses `size` bytes: the property byte, then the raw LZMA2 stream. The strongest
// preset for small inputs (the usual structure), faster ones for very large ones.
std::vector<uint8_t> lzmaCompress(const uint8_t* data, size_t size);

// Decompresses what lzmaCompress wrote; it must expand to exactly `expectedSize` bytes.
// Returns false if the stream is corrupt, asks for a dictionary above 1 GiB, or has
// another size. The output grows with what is decoded: a false `expectedSize` cannot
// make it allocate more than the stream really holds.
bool lzmaDecompress(const uint8_t* data, size_t size, uint64_t expectedSize,
                    std::vector<uint8_t>& out);

}  // namespace mtf::mtfbin
