#include "mpi/column_spool.hpp"

#include <algorithm>

namespace mtf::mpi {

compaction::CompactorOptions shareOptions(int processes) {
  compaction::CompactorOptions options;
  options.bufferedEventBudget = std::max<uint64_t>(
      uint64_t{1} << 16, options.bufferedEventBudget / static_cast<uint64_t>(processes));
  return options;
}

ColumnSpool::ColumnSpool(std::filesystem::path path, compaction::CompactorOptions options)
    : path_(std::move(path)), options_(options) {}

ColumnSpool::~ColumnSpool() {
  compactor_.reset();  // first: its compression thread may still hand a chunk over
}

void ColumnSpool::begin(const Definitions& defs) {
  if (!path_.empty()) file_ = std::make_unique<mtfbin::ChunkFileWriter>(path_, 0);
  compactor_ = std::make_unique<compaction::Compactor>(
      options_, [this](LocationId location, compaction::ColumnChunk&& chunk) {
        mtfbin::IndexEntry e =
            file_ ? mtfbin::writeColumnChunk(*file_, chunk) : mtfbin::columnEntry(chunk);
        e.locationIndex = location;
        bytes_ += mtfbin::chunkHeaderSize(mtfbin::kVersion, e.storedSize) + e.storedSize;
        entries_.push_back(std::move(e));
      });
  compactor_->begin(defs);
}

compaction::CompactModel ColumnSpool::takeModel() {
  compaction::CompactModel model = std::move(compactor_->model());
  compactor_.reset();
  return model;
}

void ColumnSpool::end() {
  compactor_->end();
  if (file_) file_->close();
}

}  // namespace mtf::mpi
