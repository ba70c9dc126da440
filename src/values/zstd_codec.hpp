// zstd (libzstd) with RAII around its contexts and dictionaries: the entropy stage of
// column coding 3. Frames are written without content size, checksum or dictionary id
// (the chunk header holds the size, the archive's CRC32 guards the bytes, an archive has
// at most one dictionary), so a frame costs 2 bytes of header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "values/byte_coding.hpp"

namespace mtf::values {

// A dictionary, ready for compression at one level and for decompression.
class ZstdDictionary {
 public:
  // `content`: a trained dictionary (ZDICT) or raw content; copied. A `level` below 0:
  // for decompression only.
  ZstdDictionary(const uint8_t* content, size_t size, int level = -1);
  ~ZstdDictionary();
  ZstdDictionary(const ZstdDictionary&) = delete;
  ZstdDictionary& operator=(const ZstdDictionary&) = delete;
  const std::vector<uint8_t>& content() const { return content_; }
  struct Handles;
  const Handles& handles() const { return *handles_; }

 private:
  std::vector<uint8_t> content_;
  std::unique_ptr<Handles> handles_;
};

// Reuses one compression context.
class ZstdCompressor {
 public:
  ZstdCompressor();
  ~ZstdCompressor();
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;
  // Appends one frame of `data` at `level` (with `dictionary` if given) to `out`.
  void compress(const uint8_t* data, size_t size, int level, const ZstdDictionary* dictionary,
                std::vector<uint8_t>& out);
  // The same frame, in the compressor's own buffer (valid until the next call): for a
  // caller that only measures it, or keeps it only sometimes. That buffer grows without
  // being zero-filled (std::vector::resize to the compression bound zero-filled it each
  // time: a tenth of the chunk thread's zstd instructions).
  struct Frame {
    const uint8_t* data;
    size_t size;
  };
  Frame frame(const uint8_t* data, size_t size, int level, const ZstdDictionary* dictionary);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Decompresses one frame that must give exactly `expectedSize` bytes into `out`; false if
// the frame is corrupt, has another size, or needs a dictionary not given.
bool zstdDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    const ZstdDictionary* dictionary, std::vector<uint8_t>& out);

// The segment size (k) and the size of the substrings it scores (d) of ZDICT's fastCover
// training; zero: not known yet.
struct DictionaryTraining {
  unsigned k = 0;
  unsigned d = 0;
  bool known() const { return k != 0 && d != 0; }
};

// Trains a dictionary of at most `capacity` bytes from `samples` (ZDICT); empty if
// training fails (too few or too small samples). With no known `training`, ZDICT searches
// k (several trainings, each judged on a quarter of the samples kept aside) and
// `training` is set to what it found; with a known one, it trains once, on every sample
// (fastCover keeps samples aside only when it searches).
std::vector<uint8_t> trainZstdDictionary(const std::vector<std::vector<uint8_t>>& samples,
                                         size_t capacity, DictionaryTraining& training);
// The same, searching k each time.
std::vector<uint8_t> trainZstdDictionary(const std::vector<std::vector<uint8_t>>& samples,
                                         size_t capacity);

}  // namespace mtf::values
