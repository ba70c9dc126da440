// File access for the MTF binary archive: RAII FILE handles, chunk writing and
// checked chunk reading.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "converters/mtf/binary/archive_layout.hpp"

namespace mtf::mtfbin {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

// Appends chunks to a new file; every failure is an IoError naming the path.
class ChunkFileWriter {
 public:
  explicit ChunkFileWriter(const std::filesystem::path& path);
  // Writes a segment of an archive assembled elsewhere (mtf-mpi): the bytes that go at
  // byte `segmentStart` of the archive. No file header; positions (offsets returned,
  // the trailer's) count from `segmentStart`.
  ChunkFileWriter(const std::filesystem::path& path, uint64_t segmentStart);
  // The archive's first kHeaderSize bytes.
  static std::vector<uint8_t> fileHeader();
  // Writes one chunk; `payload` is stored as is unless `compress`, else compressed here:
  // with LZMA2 for the Structure chunk, with zlib for the other kinds. Returns the chunk's offset
  // and stored size.
  struct Written {
    uint64_t offset, storedSize;
  };
  Written writeChunk(ChunkKind kind, const std::vector<uint8_t>& payload, bool compress);
  void writeTrailer(uint64_t indexOffset);
  void close();  // flushes and closes; IoError if that fails
  uint64_t position() const { return position_; }

 private:
  void write(const uint8_t* data, size_t size);
  std::filesystem::path path_;
  FileHandle file_;
  uint64_t position_ = 0;
};

// Reads chunks of an archive; every problem is an InputError naming the byte offset.
class ChunkFileReader {
 public:
  explicit ChunkFileReader(const std::filesystem::path& path);
  uint64_t fileSize() const { return fileSize_; }
  uint64_t indexOffset() const { return indexOffset_; }  // version 3: the Structure chunk's
  uint32_t version() const { return version_; }
  const std::string& name() const { return name_; }
  // Reads the chunk at `offset`, checks its kind, size (must end by `limit`) and CRC,
  // and returns its raw payload (expanded unless it is a Columns chunk).
  std::vector<uint8_t> readChunk(uint64_t offset, ChunkKind expected, uint64_t limit,
                                 const std::string& what);
  [[noreturn]] void fail(uint64_t offset, const std::string& what) const;
  // The smallest chunk header of this archive's version.
  uint64_t minChunkHeaderSize() const;

 private:
  struct ChunkHeader {
    uint8_t kind = 0;
    uint32_t crc = 0;
    uint64_t stored = 0, raw = 0, size = 0;  // size: of the header
  };
  ChunkHeader readChunkHeader(uint64_t offset, uint64_t limit, const std::string& label);
  void readAt(uint64_t offset, uint8_t* data, size_t size);
  std::string name_;
  FileHandle file_;
  uint64_t fileSize_ = 0;
  uint64_t indexOffset_ = 0;
  uint32_t version_ = 0;
};

}  // namespace mtf::mtfbin
