#include <unordered_map>

#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/binary/lzma_codec.hpp"
#include "converters/mtf/binary/vocabulary.hpp"

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
      // The column dictionary stays in the model, and is stored in the Structure chunk.
      [](const values::ZstdDictionary&) {});
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

void writeStructure(ChunkFileWriter& file, const compaction::CompactModel& m,
                    std::vector<IndexEntry>& index) {
  const uint64_t structureOffset = file.position();
  file.writeChunk(ChunkKind::Structure, encodeStructure(m, index), true);
  file.writeTrailer(structureOffset);
  file.close();
}

void apportionStructure(ArchiveSizes& s, uint64_t storedBytes, const SectionSizes& raw) {
  uint64_t total = 0;
  for (uint64_t r : raw) total += r;
  const auto share = [&](uint64_t part) {
    return total == 0 ? 0 : static_cast<uint64_t>(static_cast<double>(storedBytes) * part / total);
  };
  s.definitions = share(raw[static_cast<size_t>(Section::Definitions)]);
  s.structure = share(raw[static_cast<size_t>(Section::Signatures)] +
                      raw[static_cast<size_t>(Section::Nodes)] +
                      raw[static_cast<size_t>(Section::Locations)] +
                      raw[static_cast<size_t>(Section::Annotations)]);
  // The column dictionary is part of the value coding.
  s.values += share(raw[static_cast<size_t>(Section::ColumnDictionary)]);
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
  for (size_t l = 0; l < m.locations.size(); ++l) {
    for (const compaction::ColumnChunk& chunk : m.locations[l].columns) {
      index.push_back(writeColumnChunk(file, chunk));
      index.back().locationIndex = l;
    }
  }
  writeStructure(file, m, index);
}

ArchiveSizes sizesOf(const compaction::CompactModel& m, const ChunkTally& chunks) {
  ArchiveSizes s;
  s.values = chunks.valueBytes + chunks.headerBytes;
  s.columnChunks = chunks.chunks;
  // The index's entries of zeros: their times and sizes are not known here.
  SectionSizes raw;
  const std::vector<uint8_t> content =
      encodeStructure(m, std::vector<IndexEntry>(chunks.chunks), &raw);
  const uint64_t packed = lzmaCompress(content.data(), content.size(), builtInVocabulary()).size();
  const uint64_t stored = chunkHeaderSize(kVersion, packed, content.size()) + packed;
  apportionStructure(s, stored, raw);
  const uint64_t dictionary = s.values - chunks.valueBytes - chunks.headerBytes;
  s.index = kHeaderSize + kTrailerSize + stored - s.definitions - s.structure - dictionary;
  s.file = s.definitions + s.structure + s.values + s.index;
  return s;
}

}  // namespace mtf::mtfbin
