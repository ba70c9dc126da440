#include <unordered_map>

#include "converters/mtf/binary/archive.hpp"
#include "values/zlib_codec.hpp"

namespace mtf::mtfbin {

ArchiveWriter::ArchiveWriter(std::filesystem::path path, compaction::CompactorOptions options)
    : path_(std::move(path)), options_(options) {}

ArchiveWriter::~ArchiveWriter() {
  // First: the compression thread may still be handing a chunk to file_ and index_.
  compactor_.reset();
}

void ArchiveWriter::begin(const Definitions& defs) {
  file_ = std::make_unique<ChunkFileWriter>(path_);
  compactor_ = std::make_unique<compaction::Compactor>(
      options_,
      [this](LocationId location, compaction::ColumnChunk&& chunk) {
        index_.push_back(writeColumnChunk(*file_, chunk));
        columnLocations_.push_back(location);
      },
      [this](const values::ZstdDictionary& dictionary) {
        index_.push_back(writeDictionary(*file_, dictionary));
      });
  compactor_->begin(defs);
}

void ArchiveWriter::event(const Event& e) {
  compactor_->event(e);
}

void ArchiveWriter::events(const SharedEventBatch& batch) {
  compactor_->events(batch);
}

IndexEntry columnEntry(const compaction::ColumnChunk& chunk) {
  IndexEntry e;
  e.kind = ChunkKind::Columns;
  e.storedSize = chunk.encoded.size();
  e.meta.firstEvent = chunk.firstEvent;
  e.meta.eventCount = chunk.eventCount;
  e.meta.firstTime = chunk.firstTime;
  e.meta.lastTime = chunk.lastTime;
  e.meta.minTime = chunk.minTime;
  e.meta.maxTime = chunk.maxTime;
  return e;
}

IndexEntry writeColumnChunk(ChunkFileWriter& file, const compaction::ColumnChunk& chunk) {
  IndexEntry e = columnEntry(chunk);
  const auto w = file.writeChunk(ChunkKind::Columns, chunk.encoded, false);
  e.offset = w.offset;
  e.storedSize = w.storedSize;
  return e;
}

IndexEntry writeDictionary(ChunkFileWriter& file, const values::ZstdDictionary& dictionary) {
  const auto w = file.writeChunk(ChunkKind::Dictionary, dictionary.content(), true);
  IndexEntry e;
  e.kind = ChunkKind::Dictionary;
  e.offset = w.offset;
  e.storedSize = w.storedSize;
  return e;
}

void writeStructure(ChunkFileWriter& file, const compaction::CompactModel& m,
                    std::vector<IndexEntry>& index) {
  auto put = [&](ChunkKind kind, const std::vector<uint8_t>& raw) {
    const auto w = file.writeChunk(kind, raw, true);
    IndexEntry e;
    e.kind = kind;
    e.offset = w.offset;
    e.storedSize = w.storedSize;
    index.push_back(e);
  };
  put(ChunkKind::Definitions, encodeDefinitions(m.definitions));
  put(ChunkKind::Signatures, encodeSignatures(m));
  put(ChunkKind::Nodes, encodeNodes(m));
  put(ChunkKind::Locations, encodeLocations(m));
  put(ChunkKind::Annotations, encodeAnnotations(m.annotations));
  const uint64_t indexOffset = file.position();
  file.writeChunk(ChunkKind::Index, encodeIndex(index), true);
  file.writeTrailer(indexOffset);
  file.close();
}

void ArchiveWriter::end() {
  compactor_->end();
  compaction::CompactModel& m = compactor_->model();
  if (hook_) hook_(m);
  // Column entries name their location by its index in the (now final) location order.
  std::unordered_map<LocationId, size_t> position;
  for (size_t i = 0; i < m.locations.size(); ++i) position.emplace(m.locations[i].location, i);
  for (size_t i = 0, c = 0; i < index_.size(); ++i)
    if (index_[i].kind == ChunkKind::Columns)
      index_[i].locationIndex = position.at(columnLocations_[c++]);
  writeStructure(*file_, m, index_);
}

void writeArchive(const compaction::CompactModel& m, const std::filesystem::path& path) {
  ChunkFileWriter file(path);
  std::vector<IndexEntry> index;
  if (m.columnDictionary) index.push_back(writeDictionary(file, *m.columnDictionary));
  for (size_t l = 0; l < m.locations.size(); ++l) {
    for (const compaction::ColumnChunk& chunk : m.locations[l].columns) {
      index.push_back(writeColumnChunk(file, chunk));
      index.back().locationIndex = l;
    }
  }
  writeStructure(file, m, index);
}

ArchiveSizes sizesOf(const compaction::CompactModel& m, uint64_t valueBytes,
                     uint64_t columnChunks) {
  auto stored = [](const std::vector<uint8_t>& raw) {
    return kChunkHeaderSize + compaction::zlibCompress(raw.data(), raw.size(), 6).size();
  };
  ArchiveSizes s;
  s.definitions = stored(encodeDefinitions(m.definitions));
  s.structure = stored(encodeSignatures(m)) + stored(encodeNodes(m)) + stored(encodeLocations(m)) +
                stored(encodeAnnotations(m.annotations));
  s.values = valueBytes + columnChunks * kChunkHeaderSize;
  s.columnChunks = columnChunks;
  // The index holds ~10 bytes per column chunk before compression; estimate it exactly.
  std::vector<IndexEntry> index(columnChunks + 5);
  s.index = kHeaderSize + kTrailerSize + stored(encodeIndex(index));
  s.file = s.definitions + s.structure + s.values + s.index;
  return s;
}

}  // namespace mtf::mtfbin
