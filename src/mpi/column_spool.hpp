// A process's compaction: a Compactor whose finished column chunks go, as they are
// finished, to a spool file in the exact bytes they will have in the archive (chunk
// header and all), offsets counted from the spool's start. mtf-mpi copies each spool
// into the archive at the offset a prefix sum over the processes gives it.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "compaction/compactor.hpp"
#include "converters/mtf/binary/archive.hpp"

namespace mtf::mpi {

// The compactor's options for one of `processes` processes: the serial budget of buffered
// events (unfinished column chunks) shared out, so that a process needs about 1/N of the
// serial conversion's memory for them.
compaction::CompactorOptions shareOptions(int processes);

class ColumnSpool : public TraceSink {
 public:
  // Without a path, chunks are only counted (mtf-mpi stats).
  ColumnSpool(std::filesystem::path path, compaction::CompactorOptions options);
  ~ColumnSpool() override;

  void begin(const Definitions& defs) override;
  void event(const Event& e) override { compactor_->event(e); }
  void events(const SharedEventBatch& batch) override { compactor_->events(batch); }
  void end() override;

  compaction::CompactModel& model() { return compactor_->model(); }
  // The model, the compactor's working state freed (after end()).
  compaction::CompactModel takeModel();
  // The column chunks' entries in spool order, each naming its location by id in
  // `locationIndex` (the archive's location order is known only after the merge).
  std::vector<mtfbin::IndexEntry>& entries() { return entries_; }
  uint64_t bytes() const { return bytes_; }

 private:
  std::filesystem::path path_;
  compaction::CompactorOptions options_;
  std::unique_ptr<mtfbin::ChunkFileWriter> file_;
  std::unique_ptr<compaction::Compactor> compactor_;
  std::vector<mtfbin::IndexEntry> entries_;
  uint64_t bytes_ = 0;
};

}  // namespace mtf::mpi
