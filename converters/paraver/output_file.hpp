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
  void write(std::string_view text);
  void line(std::string_view text) {
    write(text);
    write("\n");
  }
  // Flushes and closes; throws IoError on failure (e.g. disk full).
  void close();

 private:
  std::string path_;
  FileHandle plain_;
  GzHandle gz_;
};

// Writes a whole small file.
void writeSmallFile(const std::string& path, std::string_view text);

}  // namespace mtf::paraver
