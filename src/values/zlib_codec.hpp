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

// How one section of a sectioned stream is deflated (zlib's strategies).
enum class ZlibStrategy : uint8_t { Default, Rle };
struct ZlibSection {
  size_t size;  // bytes of the input
  int level;    // 0..9 (0: stored, not compressed)
  ZlibStrategy strategy;
};
// Compresses consecutive sections of `data` (their sizes sum to the input) into ONE raw
// deflate stream (no zlib header and no Adler-32: the archive's CRC32 of each chunk
// already guards it), switching level and strategy between sections (deflateParams): it
// inflates like any deflate stream, but noise is stored and runs are run-length coded,
// instead of searching matches that are not there. Reuses its state.
class ZlibSectionCompressor {
 public:
  ZlibSectionCompressor();
  ~ZlibSectionCompressor();
  ZlibSectionCompressor(const ZlibSectionCompressor&) = delete;
  ZlibSectionCompressor& operator=(const ZlibSectionCompressor&) = delete;
  // Appends the stream to `out`.
  void compress(const uint8_t* data, const std::vector<ZlibSection>& sections,
                std::vector<uint8_t>& out);

 private:
  struct State;
  std::unique_ptr<State> state_;
};
// A zlib stream (RFC 1950), or a raw deflate stream (RFC 1951) as ZlibSectionCompressor
// writes.
enum class ZlibFormat : uint8_t { Zlib, RawDeflate };
// Decompresses a stream that must inflate to exactly `expectedSize` bytes; returns
// false (out untouched or partial) if the stream is corrupt or has another size.
bool zlibDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    std::vector<uint8_t>& out, ZlibFormat format = ZlibFormat::Zlib);
uint32_t crc32Of(const uint8_t* data, size_t size);

}  // namespace mtf::values
