#include "converters/chrome/json_output.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "util/error.hpp"

namespace mtf::chrome {

JsonOutput::JsonOutput(std::string path, bool gzip) : path_(std::move(path)) {
  if (gzip) {
    gz_.reset(gzopen(path_.c_str(), "wb6"));
    if (gz_) gzbuffer(gz_.get(), 1 << 18);
  } else {
    plain_.reset(std::fopen(path_.c_str(), "wb"));
  }
  if (!gz_ && !plain_) throw IoError(path_, std::string("cannot create: ") + std::strerror(errno));
  buffer_.reserve(kFlushBytes + 4096);
}

void JsonOutput::flush() {
  if (buffer_.empty()) return;
  bool ok = false;
  if (gz_) {
    ok = gzwrite(gz_.get(), buffer_.data(), static_cast<unsigned>(buffer_.size())) ==
         static_cast<int>(buffer_.size());
  } else if (plain_) {
    ok = std::fwrite(buffer_.data(), 1, buffer_.size(), plain_.get()) == buffer_.size();
  }
  if (!ok) throw IoError(path_, "write failed (disk full?)");
  buffer_.clear();
}

void JsonOutput::close() {
  flush();
  if (gz_ && gzclose(gz_.release()) != Z_OK)
    throw IoError(path_, "closing the compressed stream failed");
  if (plain_) {
    std::FILE* f = plain_.release();
    const bool flushed = std::fflush(f) == 0;
    if (std::fclose(f) != 0 || !flushed) throw IoError(path_, "write failed (disk full?)");
  }
}

void appendFileTo(const std::string& from, JsonOutput& to, size_t skipBytes) {
  {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(from.c_str(), "rb"),
                                                       &std::fclose);
    if (!in) throw IoError(from, std::string("cannot reopen: ") + std::strerror(errno));
    char block[1 << 16];
    size_t n = 0;
    while ((n = std::fread(block, 1, sizeof block, in.get())) > 0) {
      const size_t skip = std::min(n, skipBytes);
      skipBytes -= skip;
      to.write(std::string_view(block + skip, n - skip));
    }
    if (std::ferror(in.get())) throw IoError(from, "read failed");
  }
  std::error_code ec;
  std::filesystem::remove(from, ec);
}

}  // namespace mtf::chrome
