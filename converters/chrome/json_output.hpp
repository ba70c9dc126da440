// The Chrome writer's output file: plain or gzip (zlib's gzFile), buffered, with
// checked writes. RAII: a file not closed explicitly (an error on the way) is closed
// by the destructor without a check; SafeOutput then throws the staging copy away.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace mtf::chrome {

class JsonOutput {
 public:
  // Throws IoError if the file cannot be created.
  JsonOutput(std::string path, bool gzip);
  // The buffer callers append to; flushed to the file once it holds a megabyte.
  std::string& buffer() { return buffer_; }
  void maybeFlush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void write(std::string_view text) {
    buffer_.append(text);
    maybeFlush();
  }
  // Flushes and closes; throws IoError on failure (e.g. disk full).
  void close();
  const std::string& path() const { return path_; }

 private:
  static constexpr size_t kFlushBytes = size_t{1} << 20;
  struct GzCloser {
    void operator()(gzFile_s* f) const { gzclose(f); }
  };
  struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  void flush();

  std::string path_;
  std::string buffer_;
  std::unique_ptr<gzFile_s, GzCloser> gz_;
  std::unique_ptr<std::FILE, FileCloser> plain_;
};

// Appends the whole of file `from` to `to` (through its buffer), then removes `from`.
void appendFileTo(const std::string& from, JsonOutput& to, size_t skipBytes);

}  // namespace mtf::chrome
