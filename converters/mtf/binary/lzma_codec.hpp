// LZMA2 (liblzma) for the archive's structure chunk (version 3; version 6 with a preset
// dictionary): a raw LZMA2 stream
// preceded by one byte, the LZMA2 filter property that gives its dictionary size
// (docs/mtf-format.md section 3). RAII around lzma_stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mtf::mtfbin {

// Compresses `size` bytes: the property byte, then the raw LZMA2 stream. The strongest
// preset for small inputs (the usual structure), faster ones for very large ones.
// `preset`: a preset dictionary (version 6: the built-in vocabulary), history that the
// stream's matches may refer to as if it preceded the data; the dictionary size covers both.
std::vector<uint8_t> lzmaCompress(const uint8_t* data, size_t size,
                                  std::span<const uint8_t> preset = {});

// Decompresses what lzmaCompress wrote; it must expand to exactly `expectedSize` bytes.
// Returns false if the stream is corrupt, asks for a dictionary above 1 GiB, or has
// another size. The output grows with what is decoded: a false `expectedSize` cannot
// make it allocate more than the stream really holds.
// `preset` must be the one the stream was compressed with.
bool lzmaDecompress(const uint8_t* data, size_t size, uint64_t expectedSize,
                    std::vector<uint8_t>& out, std::span<const uint8_t> preset = {});

}  // namespace mtf::mtfbin
