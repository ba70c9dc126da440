#include "values/zlib_codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <stdexcept>

#include "values/byte_coding.hpp"

namespace mtf::values {

namespace {

// Owns a z_stream for deflate or inflate and ends it on every path.
class ZStream {
 public:
  enum class Mode { Deflate, Inflate };
  ZStream(Mode mode, int level, ZlibFormat format = ZlibFormat::Zlib) : mode_(mode) {
    const int windowBits = format == ZlibFormat::Zlib ? 15 : -15;
    const int rc = mode == Mode::Deflate ? deflateInit2(&stream_, level, Z_DEFLATED, windowBits, 8,
                                                        Z_DEFAULT_STRATEGY)
                                         : inflateInit2(&stream_, windowBits);
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (rc != Z_OK) throw std::runtime_error("zlib initialisation failed");
  }
  ~ZStream() { mode_ == Mode::Deflate ? deflateEnd(&stream_) : inflateEnd(&stream_); }
  ZStream(const ZStream&) = delete;
  ZStream& operator=(const ZStream&) = delete;
  z_stream* get() { return &stream_; }

 private:
  z_stream stream_{};
  Mode mode_;
};

}  // namespace

std::vector<uint8_t> zlibCompress(const uint8_t* data, size_t size, int level) {
  ZStream z(ZStream::Mode::Deflate, level);
  std::vector<uint8_t> out(deflateBound(z.get(), static_cast<uLong>(size)));
  z.get()->next_in = const_cast<Bytef*>(data);
  z.get()->avail_in = static_cast<uInt>(size);
  z.get()->next_out = out.data();
  z.get()->avail_out = static_cast<uInt>(out.size());
  if (deflate(z.get(), Z_FINISH) != Z_STREAM_END) throw std::runtime_error("zlib deflate failed");
  out.resize(z.get()->total_out);
  return out;
}

bool zlibDecompress(const uint8_t* data, size_t size, size_t expectedSize,
                    std::vector<uint8_t>& out, ZlibFormat format) {
  ZStream z(ZStream::Mode::Inflate, 0, format);
  out.resize(expectedSize);
  // One spare byte detects a stream that inflates to more than announced.
  uint8_t spare = 0;
  z.get()->next_in = const_cast<Bytef*>(data);
  z.get()->avail_in = static_cast<uInt>(size);
  z.get()->next_out = out.data();
  z.get()->avail_out = static_cast<uInt>(expectedSize);
  int rc = inflate(z.get(), Z_FINISH);
  if (rc == Z_BUF_ERROR && z.get()->avail_out == 0) {
    z.get()->next_out = &spare;
    z.get()->avail_out = 1;
    rc = inflate(z.get(), Z_FINISH);
  }
  return rc == Z_STREAM_END && z.get()->total_out == expectedSize && z.get()->avail_in == 0;
}

uint32_t crc32Of(const uint8_t* data, size_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (size > 0) {
    const uInt n = size > (1u << 30) ? (1u << 30) : static_cast<uInt>(size);
    crc = crc32(crc, data, n);
    data += n;
    size -= n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace mtf::values
