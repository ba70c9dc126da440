// The MTF binary archive (.mtf): writer (a TraceSink that compacts while it streams the
// value columns to disk), reader (random access to one location or a time window),
// and validation. Layout: archive_layout.hpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "converters/mtf/binary/archive_io.hpp"
#include "converters/mtf/binary/archive_layout.hpp"
#include "converters/mtf/binary/model_codec.hpp"
#include "converters/mtf/binary/structure_codec.hpp"

namespace mtf::mtfbin {

// Bytes of each part of an archive (for `mtf stats`).
struct ArchiveSizes {
  uint64_t file = 0;
  // Version 3 keeps definitions, structure and index in one compressed chunk: their
  // bytes are its stored bytes shared in proportion to their raw sizes.
  uint64_t definitions = 0;  // chunk headers included
  uint64_t structure = 0;    // signatures + nodes + locations + annotations
  uint64_t values = 0;       // column chunks
  uint64_t index = 0;        // index + header + trailer
  uint64_t columnChunks = 0;
};

// Splits the Structure chunk's `storedBytes` (header included) into `s.definitions` and
// `s.structure` in proportion to the raw sizes of its sections (they share one stream).
void apportionStructure(ArchiveSizes& s, uint64_t storedBytes, const SectionSizes& raw);

// What column chunks take in an archive written now, counted chunk by chunk (a chunk's
// header size depends on its own size since version 7).
struct ChunkTally {
  uint64_t valueBytes = 0;   // the chunks' stored bytes
  uint64_t headerBytes = 0;  // their headers'
  uint64_t chunks = 0;
  // Counts a chunk of `stored` bytes; returns its bytes in the archive, header included.
  uint64_t add(uint64_t stored) {
    const uint64_t header = chunkHeaderSize(kVersion, stored);
    valueBytes += stored;
    headerBytes += header;
    ++chunks;
    return stored + header;
  }
};

// The sizes an archive of `model` would have, whose column chunks are `chunks` (for
// `mtf stats` on inputs that are not .mtf).
ArchiveSizes sizesOf(const compaction::CompactModel& model, const ChunkTally& chunks);

// Streams a trace into an archive at `path`. Column chunks are written as compaction
// finishes them; the structure and index are written by end().
class ArchiveWriter : public TraceSink {
 public:
  explicit ArchiveWriter(std::filesystem::path path, compaction::CompactorOptions options = {});
  ~ArchiveWriter() override;
  // Called after compaction, before the structure is written: lets an analysis (NLR,
  // patterns) attach annotations to the model.
  void setModelHook(std::function<void(compaction::CompactModel&)> hook) {
    hook_ = std::move(hook);
  }

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override;
  void end() override;
  const compaction::CompactModel& model() { return compactor_->model(); }

 private:
  std::filesystem::path path_;
  compaction::CompactorOptions options_;
  std::unique_ptr<ChunkFileWriter> file_;
  std::unique_ptr<compaction::Compactor> compactor_;
  std::vector<IndexEntry> index_;
  std::vector<LocationId> columnLocations_;  // location of each Columns entry of index_
  std::function<void(compaction::CompactModel&)> hook_;
};

// The index entry of a column chunk: its sizes and times, not its bytes (offset and
// location index left 0).
IndexEntry columnEntry(const compaction::ColumnChunk& chunk);
// Writes a column chunk to `file` and returns its index entry (location index left 0).
IndexEntry writeColumnChunk(ChunkFileWriter& file, const compaction::ColumnChunk& chunk);
// Writes what follows the column chunks (`index` holds their entries): the Structure
// chunk of `m` and the index, the trailer; closes.
void writeStructure(ChunkFileWriter& file, const compaction::CompactModel& m,
                    std::vector<IndexEntry>& index);

// Writes an already built model (columns in memory) to `path`.
void writeArchive(const compaction::CompactModel& model, const std::filesystem::path& path);

class ArchiveReader {
 public:
  // Reads header, trailer, index and structure; checks the model's consistency.
  // Throws InputError naming the byte offset or chunk on any problem.
  explicit ArchiveReader(const std::filesystem::path& path);
  std::shared_ptr<const compaction::CompactModel> model() const { return model_; }
  // Loads and checks (CRC) column chunk `chunk` of location index `location`. Safe to
  // call from several threads at once (the expansion's lanes do).
  compaction::ColumnChunk loadColumns(size_t location, size_t chunk);
  ArchiveSizes sizes() const { return sizes_; }
  // Reads every column chunk and expands every location: all checksums, and that the
  // columns agree with the DAG. Throws InputError at the first problem.
  void verifyEverything();
  const std::string& name() const { return file_.name(); }
  uint32_t version() const { return file_.version(); }

 private:
  void loadStructure();
  void loadStructureChunks();  // versions 1 and 2
  void indexColumns();
  ChunkFileReader file_;
  std::mutex fileMutex_;  // loadColumns' reads (one file position)
  std::vector<IndexEntry> index_;
  std::vector<std::vector<size_t>> columnEntries_;  // per location: entries of index_
  std::shared_ptr<compaction::CompactModel> model_;
  ArchiveSizes sizes_;
};

// A TraceSource over an archive; optionally restricted to locations or a time window.
class ArchiveSource : public TraceSource {
 public:
  ArchiveSource(const std::filesystem::path& path, const ReadOptions& options);
  const Definitions& definitions() override { return reader_->model()->definitions; }
  void read(TraceSink& sink) override;
  void selectLocations(std::vector<LocationId> ids) { locations_ = std::move(ids); }
  bool restrictToLocations(const std::vector<LocationId>& ids) override {
    selectLocations(ids);
    return true;
  }
  // The archive's exact event count of every location.
  std::map<LocationId, uint64_t> eventEstimates() override;
  void setWindow(compaction::TimeWindow window) { window_ = window; }
  // Reads from now on only what a cut to the time window [from, to) needs
  // (filter/time_window.hpp): the column chunks that hold [from, to), and what the chunks
  // before leave open, from the DAG alone, told to `prefix` (compaction::ExpandOptions).
  void restrictToWindow(Tick from, Tick to, compaction::PrefixSink& prefix);

 private:
  std::shared_ptr<ArchiveReader> reader_;
  std::vector<LocationId> locations_;
  compaction::TimeWindow window_;
  compaction::PrefixSink* prefix_ = nullptr;  // see compaction::ExpandOptions
};

// True if `path` is a file starting with the archive magic.
bool looksLikeMtfBinary(const std::filesystem::path& path);

}  // namespace mtf::mtfbin
