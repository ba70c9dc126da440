// TAU .trc records: the two binary layouts, both byte orders, buffered reading and
// writing, and the packed parameter of MPI message events.
#pragma once

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mtf::tau {

// One record, whatever its layout on disk.
struct Record {
  int64_t event = 0;  // event id of the .edf
  uint16_t node = 0;
  uint16_t thread = 0;
  int64_t par = 0;
  uint64_t time = 0;  // microseconds
  bool operator==(const Record&) const = default;
};

// 24 bytes: int32 ev, uint16 nid, uint16 tid, int64 par, uint64 ti.
// 32 bytes: int64 ev, uint16 nid, uint16 tid, uint32 pad, int64 par, uint64 ti.
struct RecordFormat {
  uint32_t size = 24;
  bool bigEndian = false;
  bool operator==(const RecordFormat&) const = default;
  std::string name() const;  // "24le", "32be", ...
  static std::optional<RecordFormat> fromName(const std::string& name);
};

inline constexpr int64_t kInitParameter = 3;  // EV_INIT's par, the anchor of detection

Record decodeRecord(const unsigned char* bytes, RecordFormat format);
void encodeRecordAnyLayout(const Record& record, RecordFormat format, unsigned char* bytes);
// The writers' hot path: the usual layout (24 bytes, little-endian) on a little-endian
// host stores the fields as they are.
inline void encodeRecord(const Record& record, RecordFormat format, unsigned char* bytes) {
  if (std::endian::native != std::endian::little || format.size != 24 || format.bigEndian)
    return encodeRecordAnyLayout(record, format, bytes);
  const auto event = static_cast<uint32_t>(record.event);
  std::memcpy(bytes, &event, 4);
  std::memcpy(bytes + 4, &record.node, 2);
  std::memcpy(bytes + 6, &record.thread, 2);
  std::memcpy(bytes + 8, &record.par, 8);
  std::memcpy(bytes + 16, &record.time, 8);
}

// The layouts record 0 (EV_INIT, par 3) fits. Several fits are possible in theory;
// `initEventId` (EV_INIT's id from the .edf, if known) breaks ties.
std::vector<RecordFormat> formatsFittingFirstRecord(const unsigned char* bytes, size_t available,
                                                    std::optional<int64_t> initEventId);

// RAII std::FILE.
struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// Reads one .trc record by record through a large buffer; the file is never loaded whole.
// Tells the layout from record 0 unless one is given. Throws InputError naming the
// file and the record index on a truncated record or an untellable layout.
class RecordReader {
 public:
  // `bufferBytes`: large for one file at a time, small when many are open at once (merge).
  RecordReader(const std::filesystem::path& path, std::optional<int64_t> initEventId,
               std::optional<RecordFormat> format = std::nullopt, size_t bufferBytes = 1 << 20);
  RecordFormat format() const { return format_; }
  uint64_t recordCount() const { return count_; }
  // Bytes after the last whole record (a file cut while being written): not read.
  uint64_t trailingBytes() const { return trailingBytes_; }
  // Index of the record next() returns next.
  uint64_t index() const { return next_; }
  bool next(Record& record);
  // The last record, read by seeking (the reader's position is kept).
  Record lastRecord();
  const std::filesystem::path& path() const { return path_; }

 private:
  bool refill();
  std::filesystem::path path_;
  FilePtr file_;
  RecordFormat format_;
  uint64_t count_ = 0;
  uint64_t trailingBytes_ = 0;
  uint64_t next_ = 0;
  std::vector<unsigned char> buffer_;
  size_t bufferPos_ = 0;
  size_t bufferEnd_ = 0;
};

// Appends records to a memory buffer and flushes it to a file in append mode when it
// grows, so thousands of thread files never hold thousands of open descriptors.
class RecordAppender {
 public:
  // The buffer is written out when it holds `flushBytes` (writers of many threads pass
  // less, so memory stays bounded).
  RecordAppender(std::filesystem::path path, RecordFormat format, size_t flushBytes = 64 * 1024);
  // Encodes straight into the buffer (no per-record copy or library call).
  void append(const Record& record) {
    encodeRecord(record, format_, buffer_.get() + used_);
    used_ += format_.size;
    ++written_;
    if (used_ >= flushBytes_) flush();
  }
  void flush();
  uint64_t written() const { return written_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  RecordFormat format_;
  size_t flushBytes_;
  std::unique_ptr<unsigned char[]> buffer_;  // flushBytes_ + one record, not zeroed
  size_t used_ = 0;
  bool created_ = false;
  uint64_t written_ = 0;
};

// The packed `par` of MESSAGE_SEND / MESSAGE_RECV (see the formats README).
struct Message {
  uint32_t partner = 0;  // the other node (world rank), 16 bits
  uint32_t tag = 0;      // 16 bits
  uint32_t length = 0;   // 26 bits
  uint32_t comm = 0;     // 6 bits
  bool operator==(const Message&) const = default;
};
inline constexpr uint32_t kMaxPartner = 0xFFFF, kMaxTag = 0xFFFF, kMaxLength = (1u << 26) - 1,
                          kMaxComm = 63;

Message unpackMessage(int64_t par);
int64_t packMessage(const Message& m);  // fields must fit their widths

}  // namespace mtf::tau
