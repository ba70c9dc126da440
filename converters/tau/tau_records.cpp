#include "converters/tau/tau_records.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <system_error>

#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::tau {
namespace {

uint64_t swapBytes(uint64_t v, size_t width) {
  switch (width) {
    case 2:
      return __builtin_bswap16(static_cast<uint16_t>(v));
    case 4:
      return __builtin_bswap32(static_cast<uint32_t>(v));
    default:
      return __builtin_bswap64(v);
  }
}

// Fixed-width integer in the file's byte order (memcpy + swap: the hot path of reading).
uint64_t loadUnsigned(const unsigned char* p, size_t width, bool bigEndian) {
  uint64_t v = 0;
  if (width == 2) {
    uint16_t x;
    std::memcpy(&x, p, 2);
    v = x;
  } else if (width == 4) {
    uint32_t x;
    std::memcpy(&x, p, 4);
    v = x;
  } else {
    std::memcpy(&v, p, 8);
  }
  const bool hostBig = std::endian::native == std::endian::big;
  return bigEndian != hostBig ? swapBytes(v, width) : v;
}

void storeUnsigned(uint64_t v, size_t width, bool bigEndian, unsigned char* p) {
  const bool hostBig = std::endian::native == std::endian::big;
  if (bigEndian != hostBig) v = swapBytes(v, width);
  if (width == 2) {
    const uint16_t x = static_cast<uint16_t>(v);
    std::memcpy(p, &x, 2);
  } else if (width == 4) {
    const uint32_t x = static_cast<uint32_t>(v);
    std::memcpy(p, &x, 4);
  } else {
    std::memcpy(p, &v, 8);
  }
}

}  // namespace

std::string RecordFormat::name() const {
  return std::to_string(size) + (bigEndian ? "be" : "le");
}

std::optional<RecordFormat> RecordFormat::fromName(const std::string& name) {
  for (uint32_t size : {24u, 32u})
    for (bool big : {false, true})
      if (RecordFormat{size, big}.name() == name) return RecordFormat{size, big};
  return std::nullopt;
}

Record decodeRecord(const unsigned char* p, RecordFormat f) {
  Record r;
  const bool be = f.bigEndian;
  if (f.size == 24) {
    r.event = static_cast<int32_t>(loadUnsigned(p, 4, be));
    r.node = static_cast<uint16_t>(loadUnsigned(p + 4, 2, be));
    r.thread = static_cast<uint16_t>(loadUnsigned(p + 6, 2, be));
    r.par = static_cast<int64_t>(loadUnsigned(p + 8, 8, be));
    r.time = loadUnsigned(p + 16, 8, be);
  } else {
    r.event = static_cast<int64_t>(loadUnsigned(p, 8, be));
    r.node = static_cast<uint16_t>(loadUnsigned(p + 8, 2, be));
    r.thread = static_cast<uint16_t>(loadUnsigned(p + 10, 2, be));
    r.par = static_cast<int64_t>(loadUnsigned(p + 16, 8, be));
    r.time = loadUnsigned(p + 24, 8, be);
  }
  return r;
}

void encodeRecordAnyLayout(const Record& r, RecordFormat f, unsigned char* p) {
  const bool be = f.bigEndian;
  if (f.size == 24) {
    storeUnsigned(static_cast<uint32_t>(r.event), 4, be, p);
    storeUnsigned(r.node, 2, be, p + 4);
    storeUnsigned(r.thread, 2, be, p + 6);
    storeUnsigned(static_cast<uint64_t>(r.par), 8, be, p + 8);
    storeUnsigned(r.time, 8, be, p + 16);
  } else {
    storeUnsigned(static_cast<uint64_t>(r.event), 8, be, p);
    storeUnsigned(r.node, 2, be, p + 8);
    storeUnsigned(r.thread, 2, be, p + 10);
    storeUnsigned(0, 4, be, p + 12);
    storeUnsigned(static_cast<uint64_t>(r.par), 8, be, p + 16);
    storeUnsigned(r.time, 8, be, p + 24);
  }
}

std::vector<RecordFormat> formatsFittingFirstRecord(const unsigned char* bytes, size_t available,
                                                    std::optional<int64_t> initEventId) {
  std::vector<RecordFormat> fits;
  for (uint32_t size : {24u, 32u}) {
    if (available < size) continue;
    for (bool big : {false, true}) {
      const RecordFormat f{size, big};
      const Record r = decodeRecord(bytes, f);
      // The event id of a real file is small and non-negative; EV_INIT's par is 3.
      if (r.par != kInitParameter || r.event < 0 || r.event > 0x7FFFFFFF) continue;
      fits.push_back(f);
    }
  }
  if (fits.size() > 1 && initEventId) {
    std::vector<RecordFormat> exact;
    for (const RecordFormat& f : fits)
      if (decodeRecord(bytes, f).event == *initEventId) exact.push_back(f);
    if (!exact.empty()) fits = exact;
  }
  return fits;
}

RecordReader::RecordReader(const fs::path& path, std::optional<int64_t> initEventId,
                           std::optional<RecordFormat> format, size_t bufferBytes)
    : path_(path), file_(std::fopen(path.c_str(), "rb")) {
  if (!file_) throw InputError(path.string(), "", "cannot open: " + std::string(strerror(errno)));
  std::error_code ec;
  const uint64_t bytes = fs::file_size(path, ec);
  if (ec) throw IoError(path.string(), "cannot stat: " + ec.message());
  // No bigger than the file: many small thread files would each zero a whole buffer.
  buffer_.resize(std::clamp<uint64_t>(bytes, 64, std::max<size_t>(bufferBytes, 64)));
  unsigned char first[32] = {};
  const size_t got = std::fread(first, 1, sizeof first, file_.get());
  if (format) {
    format_ = *format;
  } else {
    const auto fits = formatsFittingFirstRecord(first, got, initEventId);
    if (fits.size() != 1)
      throw InputError(path.string(), placeRecord(0),
                       fits.empty() ? "not an EV_INIT record (par 3): record size and byte "
                                      "order cannot be told"
                                    : "record size and byte order cannot be told (several "
                                      "layouts fit record 0)");
    format_ = fits.front();
  }
  count_ = bytes / format_.size;
  trailingBytes_ = bytes % format_.size;  // TAU's own reader stops before them too
  std::fseek(file_.get(), 0, SEEK_SET);
}

bool RecordReader::refill() {
  const size_t keep = bufferEnd_ - bufferPos_;
  std::memmove(buffer_.data(), buffer_.data() + bufferPos_, keep);
  bufferPos_ = 0;
  bufferEnd_ = keep;
  const size_t got = std::fread(buffer_.data() + keep, 1, buffer_.size() - keep, file_.get());
  if (got == 0 && std::ferror(file_.get()))
    throw IoError(path_.string(), "read failed at record " + std::to_string(next_));
  bufferEnd_ += got;
  return bufferEnd_ - bufferPos_ >= format_.size;
}

bool RecordReader::next(Record& record) {
  if (next_ >= count_) return false;
  if (bufferEnd_ - bufferPos_ < format_.size && !refill())
    throw InputError(path_.string(), placeRecord(next_), "file shrank while reading");
  record = decodeRecord(buffer_.data() + bufferPos_, format_);
  bufferPos_ += format_.size;
  ++next_;
  return true;
}

Record RecordReader::lastRecord() {
  if (count_ == 0) throw InputError(path_.string(), placeRecord(0), "no records");
  const long position = std::ftell(file_.get());
  unsigned char bytes[32];
  std::fseek(file_.get(), static_cast<long>((count_ - 1) * format_.size), SEEK_SET);
  if (std::fread(bytes, 1, format_.size, file_.get()) != format_.size)
    throw InputError(path_.string(), placeRecord(count_ - 1), "cannot read the last record");
  std::fseek(file_.get(), position, SEEK_SET);
  return decodeRecord(bytes, format_);
}

RecordAppender::RecordAppender(fs::path path, RecordFormat format, size_t flushBytes)
    : path_(std::move(path)),
      format_(format),
      flushBytes_(std::max<size_t>(flushBytes, 32)),
      buffer_(new unsigned char[flushBytes_ + 32]) {}

// Opens the file for each flush (append mode after the first), so that thousands of thread
// files never hold thousands of descriptors; unbuffered: one write per flush, no stdio
// buffer between (as paraver::OutputFile).
void RecordAppender::flush() {
  if (used_ == 0 && created_) return;
  FilePtr file(std::fopen(path_.c_str(), created_ ? "ab" : "wb"));
  if (!file)
    throw IoError(path_.string(), "cannot open for writing: " + std::string(strerror(errno)));
  created_ = true;
  std::setvbuf(file.get(), nullptr, _IONBF, 0);
  if (used_ > 0 && std::fwrite(buffer_.get(), 1, used_, file.get()) != used_)
    throw IoError(path_.string(), "write failed: " + std::string(strerror(errno)));
  if (std::fclose(file.release()) != 0)
    throw IoError(path_.string(), "close failed: " + std::string(strerror(errno)));
  used_ = 0;
}

Message unpackMessage(int64_t par) {
  const uint64_t p = static_cast<uint64_t>(par);
  Message m;
  m.length = static_cast<uint32_t>((p & 0xFFFF) | (((p >> 32) & 0x3FF) << 16));
  m.tag = static_cast<uint32_t>(((p >> 16) & 0xFF) | (((p >> 48) & 0xFF) << 8));
  m.partner = static_cast<uint32_t>(((p >> 24) & 0xFF) | (((p >> 56) & 0xFF) << 8));
  m.comm = static_cast<uint32_t>((p >> 42) & 0x3F);
  return m;
}

int64_t packMessage(const Message& m) {
  uint64_t p = 0;
  p |= uint64_t{m.length & 0xFFFF};
  p |= uint64_t{m.tag & 0xFF} << 16;
  p |= uint64_t{m.partner & 0xFF} << 24;
  p |= uint64_t{(m.length >> 16) & 0x3FF} << 32;
  p |= uint64_t{m.comm & 0x3F} << 42;
  p |= uint64_t{(m.tag >> 8) & 0xFF} << 48;
  p |= uint64_t{(m.partner >> 8) & 0xFF} << 56;
  return static_cast<int64_t>(p);
}

}  // namespace mtf::tau
