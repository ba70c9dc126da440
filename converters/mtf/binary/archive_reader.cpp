#include <algorithm>
#include <cstring>
#include <fstream>

#include "converters/mtf/binary/archive.hpp"
#include "util/error.hpp"
#include "values/byte_coding.hpp"

namespace mtf::mtfbin {

using compaction::CodingError;

ArchiveReader::ArchiveReader(const std::filesystem::path& path)
    : file_(path), model_(std::make_shared<compaction::CompactModel>()) {
  loadStructure();
}

namespace {

// Decodes a structure chunk, turning a CodingError into an InputError at its byte.
template <typename Decode>
void decodeChunk(ChunkFileReader& file, const IndexEntry& e, uint64_t limit, Decode decode) {
  const std::string what = chunkKindName(e.kind);
  const std::vector<uint8_t> raw = file.readChunk(e.offset, e.kind, limit, what);
  try {
    decode(raw);
  } catch (const CodingError& err) {
    file.fail(e.offset, what + " chunk: " + err.what + " (at byte " + std::to_string(err.offset) +
                            " of its expanded content)");
  }
}

// Chunks must not overlap and must lie between the header and the index.
void checkLayout(const ChunkFileReader& file, std::vector<IndexEntry>& index) {
  std::vector<const IndexEntry*> sorted;
  for (const IndexEntry& e : index) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(),
            [](const IndexEntry* a, const IndexEntry* b) { return a->offset < b->offset; });
  uint64_t next = kHeaderSize;
  for (const IndexEntry* e : sorted) {
    if (e->offset < next || e->offset > file.indexOffset() ||
        e->storedSize > file.indexOffset() - e->offset ||
        file.indexOffset() - e->offset - e->storedSize <
            chunkHeaderSize(file.version(), e->storedSize))
      file.fail(e->offset, std::string("index: ") + chunkKindName(e->kind) +
                               " chunk overlaps another or lies outside the archive");
    next = e->offset + chunkHeaderSize(file.version(), e->storedSize) + e->storedSize;
  }
}

}  // namespace

void ArchiveReader::loadStructure() {
  if (file_.version() >= 3) {
    IndexEntry e;
    e.kind = ChunkKind::Structure;
    e.offset = file_.indexOffset();
    SectionSizes raw;
    decodeChunk(file_, e, file_.fileSize() - kTrailerSize, [&](const std::vector<uint8_t>& bytes) {
      decodeStructure(bytes, file_.version(), *model_, index_, &raw);
    });
    checkLayout(file_, index_);
    apportionStructure(sizes_, file_.fileSize() - kTrailerSize - e.offset, raw);
  } else {
    loadStructureChunks();
  }
  indexColumns();
}

void ArchiveReader::loadStructureChunks() {
  const uint64_t indexLimit = file_.fileSize() - kTrailerSize;
  IndexEntry indexEntry;
  indexEntry.kind = ChunkKind::Index;
  indexEntry.offset = file_.indexOffset();
  decodeChunk(file_, indexEntry, indexLimit,
              [&](const std::vector<uint8_t>& raw) { index_ = decodeIndex(raw); });
  checkLayout(file_, index_);
  compaction::CompactModel& m = *model_;
  std::vector<int> seen(kLastChunkKind + 1, 0);
  const uint64_t limit = file_.indexOffset();
  for (const IndexEntry& e : index_) {
    if (e.kind == ChunkKind::Columns || e.kind == ChunkKind::Index) continue;
    if (seen[static_cast<size_t>(e.kind)]++)
      file_.fail(e.offset, std::string("a second ") + chunkKindName(e.kind) + " chunk");
    decodeChunk(file_, e, limit, [&](const std::vector<uint8_t>& raw) {
      switch (e.kind) {
        case ChunkKind::Definitions:
          decodeDefinitions(raw, m.definitions);
          break;
        case ChunkKind::Signatures:
          decodeSignatures(raw, m);
          break;
        case ChunkKind::Nodes:
          decodeNodes(raw, m);
          break;
        case ChunkKind::Locations:
          decodeLocations(raw, m);
          break;
        default:
          decodeAnnotations(raw, m.annotations);
          break;
      }
    });
    (e.kind == ChunkKind::Definitions ? sizes_.definitions : sizes_.structure) +=
        kFixedChunkHeaderSize + e.storedSize;  // versions 1 and 2
  }
  for (ChunkKind k : {ChunkKind::Definitions, ChunkKind::Signatures, ChunkKind::Nodes,
                      ChunkKind::Locations, ChunkKind::Annotations})
    if (!seen[static_cast<size_t>(k)])
      file_.fail(file_.indexOffset(), std::string("index: no ") + chunkKindName(k) + " chunk");
}

void ArchiveReader::indexColumns() {
  compaction::CompactModel& m = *model_;
  columnEntries_.resize(m.locations.size());
  for (size_t i = 0; i < index_.size(); ++i) {
    const IndexEntry& e = index_[i];
    if (e.kind != ChunkKind::Columns) continue;
    if (e.locationIndex >= m.locations.size())
      file_.fail(e.offset, "index: column chunk of location index " +
                               std::to_string(e.locationIndex) + " out of range");
    m.locations[e.locationIndex].columns.push_back(e.meta);
    columnEntries_[e.locationIndex].push_back(i);
    sizes_.values += chunkHeaderSize(file_.version(), e.storedSize) + e.storedSize;
    ++sizes_.columnChunks;
  }
  const std::vector<std::string> problems = m.check();
  if (!problems.empty()) file_.fail(file_.indexOffset(), "inconsistent model: " + problems.front());
  sizes_.file = file_.fileSize();
  sizes_.index = sizes_.file - sizes_.definitions - sizes_.structure - sizes_.values;
}

compaction::ColumnChunk ArchiveReader::loadColumns(size_t location, size_t chunk) {
  const IndexEntry& e = index_.at(columnEntries_.at(location).at(chunk));
  compaction::ColumnChunk c = e.meta;
  {
    std::lock_guard lock(fileMutex_);
    c.encoded = file_.readChunk(e.offset, ChunkKind::Columns, file_.indexOffset(), "columns");
  }
  if (c.encoded.size() != e.storedSize)
    file_.fail(e.offset, "columns chunk size differs from the index");
  return c;
}

namespace {
// Counts the events of each location (they come location after location).
class CountingSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event& e) override {
    if (counts.empty() || counts.back().first != e.location) counts.emplace_back(e.location, 0);
    ++counts.back().second;
  }
  void end() override {}
  std::vector<std::pair<LocationId, uint64_t>> counts;
};
}  // namespace

void ArchiveReader::verifyEverything() {
  compaction::ExpandOptions options;
  options.sourceName = name();
  options.loader = [this](size_t l, size_t c) { return loadColumns(l, c); };
  CountingSink sink;
  compaction::ModelSource(model_, options).read(sink);
  size_t next = 0;  // into sink.counts (locations without events are not there)
  for (const compaction::LocationModel& l : model_->locations) {
    uint64_t events = 0;
    if (next < sink.counts.size() && sink.counts[next].first == l.location)
      events = sink.counts[next++].second;
    if (events != l.eventCount)
      throw InputError(name(), placeLocation(l.location),
                       "expanded " + std::to_string(events) + " events, expected " +
                           std::to_string(l.eventCount));
  }
}

ArchiveSource::ArchiveSource(const std::filesystem::path& path, const ReadOptions&)
    : reader_(std::make_shared<ArchiveReader>(path)) {}

void ArchiveSource::read(TraceSink& sink) {
  compaction::ExpandOptions options;
  options.sourceName = reader_->name();
  options.window = window_;
  options.prefix = prefix_;
  std::shared_ptr<ArchiveReader> reader = reader_;
  options.loader = [reader](size_t l, size_t c) { return reader->loadColumns(l, c); };
  compaction::ModelSource source(reader_->model(), options);
  source.selectLocations(locations_);
  source.read(sink);
}

void ArchiveSource::restrictToWindow(Tick from, Tick to, compaction::PrefixSink& prefix) {
  window_ = {from, to > from ? to - 1 : from};
  prefix_ = &prefix;
}

std::map<LocationId, uint64_t> ArchiveSource::eventEstimates() {
  std::map<LocationId, uint64_t> events;
  for (const compaction::LocationModel& l : reader_->model()->locations)
    events[l.location] = l.eventCount;
  return events;
}

bool looksLikeMtfBinary(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == 8 && std::memcmp(magic, kMagic, 8) == 0;
}

}  // namespace mtf::mtfbin
