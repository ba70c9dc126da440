// A text output that is either a plain file or a gzip stream, with checked writes.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "converters/paraver/line_reader.hpp"
#include "converters/paraver/record_sorter.hpp"

namespace mtf::paraver {

class OutputFile final : public LineBlockSink {
 public:
  // Throws IoError if the file cannot be created.
  OutputFile(std::string path, bool gzip);
  // Buffered here (one library call per megabyte, not per line); a block that large
  // goes straight to the file.
  void write(std::string_view text) {
    if (buffer_.empty() && text.size() >= kBufferSize) return writeOut(text);
    buffer_.append(text);
    if (buffer_.size() >= kBufferSize) flush();
  }
  // A block gathered in blockMemory() is written from there, with no copy.
  void lines(std::string_view block) override;
  std::span<char> blockMemory() override;
  void line(std::string_view text) {
    buffer_.append(text);
    buffer_ += '\n';
    if (buffer_.size() >= kBufferSize) flush();
  }
  // Flushes and closes; throws IoError on failure (e.g. disk full).
  void close();
  // Leaves the first `bytes` of a plain file for a head written at the end (called first).
  void reserveHead(size_t bytes);
  // Writes `head` into the space reserveHead() left and closes. A head of another size
  // than reserved goes before the rest through a copy of the file (slower, as correct).
  void closeWithHead(std::string_view head);
  // As closeWithHead(), through a copy of the file in which `rewrite` gives each line
  // (without its end) the text to write instead (in `out`, emptied before each call).
  using LineRewrite = std::function<void(std::string_view line, std::string& out)>;
  void closeRewritingLines(std::string_view head, const LineRewrite& rewrite);

 private:
  static constexpr size_t kBufferSize = size_t{1} << 20;
  void flush();
  void writeOut(std::string_view text);
  void copyAfterHead(std::string_view head, const LineRewrite* rewrite);
  std::string path_;
  std::string buffer_;
  std::unique_ptr<char[]> block_;  // blockMemory(), made at the first call
  size_t reserved_ = 0;
  FileHandle plain_;
  GzHandle gz_;
};

// Writes a whole small file.
void writeSmallFile(const std::string& path, std::string_view text);

}  // namespace mtf::paraver
