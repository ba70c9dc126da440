#include "converters/paraver/line_reader.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/error.hpp"

namespace mtf::paraver {

namespace {
// The buffer starts small (short files, like the .pcf or the many small inputs of a fuzz
// run, should not pay for zeroing a megabyte) and doubles while reads fill it, up to kChunk.
constexpr size_t kFirstChunk = 16 << 10;
constexpr size_t kChunk = 1 << 20;
// The longest line accepted. Paraver lines are short (a communicator line of a million
// tasks is ~10 MB); without a bound, a file without line ends would be read whole.
constexpr size_t kMaxLine = size_t(64) << 20;
}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), buffer_(kFirstChunk) {
  file_.reset(gzopen(path_.c_str(), "rb"));
  if (!file_) throw IoError(path_, std::string("cannot open: ") + std::strerror(errno));
  gzbuffer(file_.get(), 64 * 1024);
}

uint64_t LineReader::bytesRead() const {
  return static_cast<uint64_t>(gzoffset(file_.get()));
}

bool LineReader::refill() {
  if (eof_) return false;
  // Keep the unread tail, grow the buffer if one line fills it.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxLine)
      throw InputError(path_, placeLine(line_number_ + 1),
                       "line longer than " + std::to_string(kMaxLine >> 20) + " MiB (no line end)");
    buffer_.resize(buffer_.size() * 2);
  }
  const unsigned want = static_cast<unsigned>(buffer_.size() - end_);
  const int got = gzread(file_.get(), buffer_.data() + end_, want);
  if (got < 0 || (got == 0 && !gzeof(file_.get()))) {
    int code = 0;
    const char* message = gzerror(file_.get(), &code);
    throw InputError(path_, placeLine(line_number_ + 1),
                     std::string("damaged or truncated compressed data (") + message + ")");
  }
  if (got == 0) {
    // zlib reports a gzip stream cut short only through gzerror after EOF.
    int code = 0;
    gzerror(file_.get(), &code);
    if (code != Z_OK)
      throw InputError(path_, placeLine(line_number_ + 1), "truncated compressed data");
    eof_ = true;
    return false;
  }
  end_ += static_cast<size_t>(got);
  // A read that filled the buffer means a big file: read it in bigger chunks.
  if (end_ == buffer_.size() && buffer_.size() < kChunk) buffer_.resize(buffer_.size() * 2);
  return true;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline) {
      size_t length = static_cast<const char*>(newline) - start;
      begin_ += length + 1;
      if (length > 0 && start[length - 1] == '\r') --length;
      line = std::string_view(start, length);
      ++line_number_;
      return true;
    }
    if (!refill()) break;
  }
  if (begin_ == end_) return false;
  // A last line without a newline.
  size_t length = end_ - begin_;
  const char* start = buffer_.data() + begin_;
  begin_ = end_;
  if (length > 0 && start[length - 1] == '\r') --length;
  line = std::string_view(start, length);
  ++line_number_;
  return true;
}

bool isGzipFile(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char magic[2] = {0, 0};
  const size_t n = std::fread(magic, 1, 2, f);
  std::fclose(f);
  return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace mtf::paraver
