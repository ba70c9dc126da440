#include "converters/mtf/binary/archive_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "converters/mtf/binary/lzma_codec.hpp"
#include "converters/mtf/binary/vocabulary.hpp"
#include "util/error.hpp"
#include "values/byte_coding.hpp"
#include "values/zlib_codec.hpp"

namespace mtf::mtfbin {

using compaction::ByteReader;

ChunkFileWriter::ChunkFileWriter(const std::filesystem::path& path, uint64_t segmentStart)
    : path_(path), file_(std::fopen(path.c_str(), "wb")), position_(segmentStart) {
  if (!file_) throw IoError(path.string(), std::string("cannot create: ") + std::strerror(errno));
}

ChunkFileWriter::ChunkFileWriter(const std::filesystem::path& path) : ChunkFileWriter(path, 0) {
  const std::vector<uint8_t> header = fileHeader();
  write(header.data(), header.size());
}

std::vector<uint8_t> ChunkFileWriter::fileHeader() {
  std::vector<uint8_t> header(kMagic, kMagic + 8);
  compaction::putFixed32(header, kVersion);
  compaction::putFixed32(header, 0);
  return header;
}

void ChunkFileWriter::write(const uint8_t* data, size_t size) {
  if (!file_) throw IoError(path_.string(), "write after close");
  if (size > 0 && std::fwrite(data, 1, size, file_.get()) != size)
    throw IoError(path_.string(), std::string("write failed: ") + std::strerror(errno));
  position_ += size;
}

ChunkFileWriter::Written ChunkFileWriter::writeChunk(ChunkKind kind,
                                                     const std::vector<uint8_t>& payload,
                                                     bool compress) {
  std::vector<uint8_t> packed;
  const std::vector<uint8_t>* stored = &payload;
  if (compress) {
    packed = kind == ChunkKind::Structure
                 ? lzmaCompress(payload.data(), payload.size(), builtInVocabulary())
                 : compaction::zlibCompress(payload.data(), payload.size(), 6);
    if (packed.empty()) throw IoError(path_.string(), "LZMA2 compression failed");
    stored = &packed;
  }
  // Version 7's short header: kind, CRC, varint sizes.
  std::vector<uint8_t> header = {static_cast<uint8_t>(kind)};
  compaction::putFixed32(header, compaction::crc32Of(stored->data(), stored->size()));
  compaction::putVarint(header, stored->size());
  compaction::putVarint(header, compress ? payload.size() : 0);
  const Written w{position_, stored->size()};
  write(header.data(), header.size());
  write(stored->data(), stored->size());
  return w;
}

void ChunkFileWriter::writeTrailer(uint64_t indexOffset) {
  std::vector<uint8_t> t;
  compaction::putFixed64(t, indexOffset);
  compaction::putFixed64(t, position_ + kTrailerSize);
  compaction::putFixed32(t, kVersion);
  compaction::putFixed32(t, compaction::crc32Of(t.data(), t.size()));
  t.insert(t.end(), kEndMagic, kEndMagic + 8);
  write(t.data(), t.size());
}

void ChunkFileWriter::close() {
  std::FILE* f = file_.release();
  if (f && std::fclose(f) != 0)
    throw IoError(path_.string(), std::string("close failed: ") + std::strerror(errno));
}

ChunkFileReader::ChunkFileReader(const std::filesystem::path& path)
    : name_(path.string()), file_(std::fopen(path.c_str(), "rb")) {
  if (!file_) throw InputError(name_, "", std::string("cannot open: ") + std::strerror(errno));
  std::error_code ec;
  fileSize_ = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(name_, "", "cannot tell its size");
  if (fileSize_ < kHeaderSize + kTrailerSize) fail(0, "too short for an MTF archive (truncated?)");
  uint8_t header[kHeaderSize];
  readAt(0, header, sizeof header);
  if (std::memcmp(header, kMagic, 8) != 0) fail(0, "not an MTF binary archive (bad magic)");
  ByteReader h(header + 8, 8);
  version_ = h.fixed32();
  if (version_ < kOldestVersion || version_ > kVersion)
    fail(8, "archive version " + std::to_string(version_) + " is not supported (this reader: " +
                std::to_string(kOldestVersion) + " to " + std::to_string(kVersion) + ")");
  uint8_t trailer[kTrailerSize];
  const uint64_t at = fileSize_ - kTrailerSize;
  readAt(at, trailer, sizeof trailer);
  if (std::memcmp(trailer + 24, kEndMagic, 8) != 0)
    fail(at, "archive end marker missing (file truncated or not finished)");
  ByteReader t(trailer, 24);
  indexOffset_ = t.fixed64();
  const uint64_t size = t.fixed64();
  t.fixed32();
  if (t.fixed32() != compaction::crc32Of(trailer, 20)) fail(at, "trailer checksum mismatch");
  if (size != fileSize_)
    fail(at, "trailer gives file size " + std::to_string(size) + ", file has " +
                 std::to_string(fileSize_));
  if (indexOffset_ < kHeaderSize || indexOffset_ + minChunkHeaderSize() > at)
    fail(at, "index offset " + std::to_string(indexOffset_) + " out of range");
}

uint64_t ChunkFileReader::minChunkHeaderSize() const {
  return version_ >= kFirstShortHeaderVersion ? kMinChunkHeaderSize : kFixedChunkHeaderSize;
}

void ChunkFileReader::fail(uint64_t offset, const std::string& what) const {
  throw InputError(name_, placeByte(offset), what);
}

void ChunkFileReader::readAt(uint64_t offset, uint8_t* data, size_t size) {
  if (offset > fileSize_ || size > fileSize_ - offset)
    fail(offset, "read past the end of the file");
  if (fseeko(file_.get(), static_cast<off_t>(offset), SEEK_SET) != 0 ||
      std::fread(data, 1, size, file_.get()) != size)
    fail(offset, "read failed (file changed or unreadable)");
}

// The header at `offset` (its bytes end by `limit`): fixed (versions 1 to 6) or short
// (version 7: u8 kind, u32 CRC, varint stored size, varint raw size).
ChunkFileReader::ChunkHeader ChunkFileReader::readChunkHeader(uint64_t offset, uint64_t limit,
                                                              const std::string& label) {
  uint8_t bytes[kMaxChunkHeaderSize];
  const size_t n = static_cast<size_t>(std::min<uint64_t>(
      limit - offset,
      version_ >= kFirstShortHeaderVersion ? kMaxChunkHeaderSize : kFixedChunkHeaderSize));
  readAt(offset, bytes, n);
  ByteReader r(bytes, n);
  ChunkHeader h;
  try {
    h.kind = r.byte();
    if (version_ < kFirstShortHeaderVersion) r.take(3);
    h.crc = r.fixed32();
    h.stored = version_ < kFirstShortHeaderVersion ? r.fixed64() : r.varint();
    h.raw = version_ < kFirstShortHeaderVersion ? r.fixed64() : r.varint();
  } catch (const compaction::CodingError&) {
    fail(offset, label + "header runs past its end");
  }
  h.size = r.position();
  return h;
}

std::vector<uint8_t> ChunkFileReader::readChunk(uint64_t offset, ChunkKind expected, uint64_t limit,
                                                const std::string& what) {
  const std::string label = what + " chunk at byte " + std::to_string(offset) + ": ";
  if (offset < kHeaderSize || offset > limit || limit - offset < minChunkHeaderSize())
    fail(offset, label + "offset out of range");
  const ChunkHeader h = readChunkHeader(offset, limit, label);
  if (h.kind != static_cast<uint8_t>(expected))
    fail(offset,
         label + "kind " + std::to_string(h.kind) + ", expected " + chunkKindName(expected));
  if (h.stored > limit - offset - h.size) fail(offset, label + "size runs past its end");
  const uint32_t crc = h.crc;
  const uint64_t raw = h.raw, stored = h.stored;
  std::vector<uint8_t> bytes(stored);
  readAt(offset + h.size, bytes.data(), bytes.size());
  if (compaction::crc32Of(bytes.data(), bytes.size()) != crc)
    fail(offset, label + "checksum mismatch");
  if (expected == ChunkKind::Columns) return bytes;
  std::vector<uint8_t> out;
  if (expected == ChunkKind::Structure) {
    // Version 6: the built-in vocabulary is the stream's preset dictionary.
    const std::span<const uint8_t> preset =
        version_ >= 6 ? builtInVocabulary() : std::span<const uint8_t>{};
    if (!lzmaDecompress(bytes.data(), bytes.size(), raw, out, preset))
      fail(offset, label + "does not expand (LZMA2) to its announced size");
    return out;
  }
  // zlib expands at most ~1032:1: a larger raw size is a lie; refuse before allocating.
  if (raw > stored * 1040 + 64) fail(offset, label + "raw size impossible for its stored size");
  if (!compaction::zlibDecompress(bytes.data(), bytes.size(), raw, out))
    fail(offset, label + "does not inflate to its announced size");
  return out;
}

}  // namespace mtf::mtfbin
