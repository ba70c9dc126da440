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

struct ZlibSectionCompressor::State {
  ZStream z{ZStream::Mode::Deflate, 6, ZlibFormat::RawDeflate};
  // The stream is deflated here, then appended to the caller's vector: this buffer is
  // reused from call to call and never zero-filled (only its first `used` bytes count).
  ByteBuffer buffer;
  size_t used = 0;

  // Deflates the pending input with `flush` until it is consumed and, for Z_BLOCK and
  // Z_FINISH, everything is out; grows the output as needed.
  void pump(int flush) {
    z_stream* s = z.get();
    for (;;) {
      if (buffer.size() - used < 256) buffer.resize(buffer.size() + buffer.size() / 4 + 4096);
      s->next_out = buffer.data() + used;
      s->avail_out = static_cast<uInt>(std::min<size_t>(buffer.size() - used, 1u << 30));
      const int rc = deflate(s, flush);
      used = static_cast<size_t>(s->next_out - buffer.data());
      if (rc == Z_STREAM_ERROR) throw std::runtime_error("zlib deflate failed");
      if (flush == Z_FINISH ? rc == Z_STREAM_END : s->avail_in == 0 && s->avail_out > 0) return;
    }
  }
};

ZlibSectionCompressor::ZlibSectionCompressor() : state_(std::make_unique<State>()) {}
ZlibSectionCompressor::~ZlibSectionCompressor() = default;

void ZlibSectionCompressor::compress(const uint8_t* data, const std::vector<ZlibSection>& sections,
                                     std::vector<uint8_t>& out) {
  State& st = *state_;
  z_stream* s = st.z.get();
  // Start from the same parameters every time: the output must be repeatable.
  if (deflateReset(s) != Z_OK || deflateParams(s, 6, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib reset failed");
  size_t total = 0;
  for (const ZlibSection& sec : sections) total += sec.size;
  st.used = 0;
  const size_t bound = total + total / 500 + 64 + 16 * sections.size();
  if (st.buffer.size() < bound) st.buffer.resize(bound);
  for (const ZlibSection& sec : sections) {
    static constexpr int kStrategy[] = {Z_DEFAULT_STRATEGY, Z_RLE};
    st.pump(Z_BLOCK);  // the previous section is out: its parameters no longer apply
    if (deflateParams(s, sec.level, kStrategy[static_cast<int>(sec.strategy)]) != Z_OK)
      throw std::runtime_error("zlib parameters refused");
    for (size_t done = 0; done < sec.size;) {
      const size_t n = std::min<size_t>(sec.size - done, 1u << 30);
      s->next_in = const_cast<Bytef*>(data + done);
      s->avail_in = static_cast<uInt>(n);
      st.pump(Z_NO_FLUSH);
      done += n;
    }
    data += sec.size;
  }
  st.pump(Z_FINISH);
  out.insert(out.end(), st.buffer.data(), st.buffer.data() + st.used);
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
