#include "converters/paraver/output_file.hpp"

#include <cerrno>
#include <cstring>

#include "util/error.hpp"

namespace mtf::paraver {

OutputFile::OutputFile(std::string path, bool gzip) : path_(std::move(path)) {
  if (gzip) {
    gz_.reset(gzopen(path_.c_str(), "wb6"));
    if (gz_) gzbuffer(gz_.get(), 1 << 18);
  } else {
    plain_.reset(std::fopen(path_.c_str(), "wb"));
    if (plain_) std::setvbuf(plain_.get(), nullptr, _IOFBF, 1 << 18);
  }
  if (!gz_ && !plain_) throw IoError(path_, std::string("cannot create: ") + std::strerror(errno));
}

void OutputFile::flush() {
  const std::string_view text = buffer_;
  if (text.empty()) return;
  bool ok = false;
  if (gz_) {
    ok = gzwrite(gz_.get(), text.data(), static_cast<unsigned>(text.size())) ==
         static_cast<int>(text.size());
  } else if (plain_) {
    ok = std::fwrite(text.data(), 1, text.size(), plain_.get()) == text.size();
  }
  if (!ok) throw IoError(path_, "write failed (disk full?)");
  buffer_.clear();
}

void OutputFile::close() {
  flush();
  if (gz_) {
    const int status = gzclose(gz_.release());
    if (status != Z_OK) throw IoError(path_, "closing the compressed stream failed");
  }
  if (plain_) {
    std::FILE* f = plain_.release();
    const bool flushed = std::fflush(f) == 0;
    if (std::fclose(f) != 0 || !flushed) throw IoError(path_, "write failed (disk full?)");
  }
}

void writeSmallFile(const std::string& path, std::string_view text) {
  OutputFile file(path, false);
  file.write(text);
  file.close();
}

}  // namespace mtf::paraver
