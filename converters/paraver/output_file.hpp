// A text output that is either a plain file or a gzip stream, with checked writes.
#pragma once

#include <string>
#include <string_view>

#include "converters/paraver/line_reader.hpp"
#include "converters/paraver/record_sorter.hpp"

namespace mtf::paraver {

class OutputFile {
 public:
  // Throws IoError if the file cannot be created.
  OutputFile(std::string path, bool gzip);
  // Buffered here (one library call per megabyte, not per line).
  void write(std::string_view text) {
    buffer_.append(text);
    if (buffer_.size() >= kBufferSize) flush();
  }
  void line(std::string_view text) {
    buffer_.append(text);
    buffer_ += '\n';
    if (buffer_.size() >= kBufferSize) flush();
  }
  // Flushes and closes; throws IoError on failure (e.g. disk full).
  void close();

 private:
  static constexpr size_t kBufferSize = size_t{1} << 20;
  void flush();
  std::string path_;
  std::string buffer_;
  FileHandle plain_;
  GzHandle gz_;
};

// Writes a whole small file.
void writeSmallFile(const std::string& path, std::string_view text);

}  // namespace mtf::paraver
