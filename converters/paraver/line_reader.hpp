// Streams the lines of a text file that may be gzip-compressed (zlib reads plain files
// transparently), without iostreams: one big buffer, memchr for line ends.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mtf::paraver {

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzHandle = std::unique_ptr<gzFile_s, GzCloser>;

class LineReader {
 public:
  // Throws IoError if the file cannot be opened.
  explicit LineReader(std::string path);
  // The next line without its end ("\n" or "\r\n"); false at the end of the file.
  // Throws InputError on a damaged or truncated .gz. The view lives until the next call.
  bool next(std::string_view& line);
  uint64_t lineNumber() const { return line_number_; }
  const std::string& path() const { return path_; }
  // Bytes of input consumed so far (compressed bytes for a .gz).
  uint64_t bytesRead() const;

 private:
  bool refill();
  std::string path_;
  GzHandle file_;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // first unread byte of buffer_
  size_t end_ = 0;    // one past the last valid byte
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

// True if the file starts with the gzip magic bytes.
bool isGzipFile(const std::string& path);

}  // namespace mtf::paraver
