// mtf-mpi's archive: the processes' structures merged up the reduction tree, their
// column chunks written in parallel with MPI-IO, each process's spool at the offset a
// prefix sum gives it, then rank 0's structure, one index over every chunk, the trailer.
// The result is an ordinary MTF archive (archive_layout.hpp).
#pragma once

#include <exception>
#include <filesystem>
#include <vector>

#include "compaction/compact_model.hpp"
#include "converters/mtf/binary/model_codec.hpp"
#include "mpi/mpi_world.hpp"

namespace mtf::mpi {

// Every process's structure (signatures, nodes, locations with their annotations) merged
// on rank 0 by dag_merge.hpp, over a binomial tree; elsewhere `mine` comes back merged
// with what this process received. The merged model does not depend on the number of
// processes.
compaction::CompactModel reduceStructure(World& world, compaction::CompactModel mine,
                                         const Definitions& defs);

// Rank 0's index entries for every process's column chunks (`mine`: this process's, in
// spool order, location ids in locationIndex), in file order, their offsets moved by each
// process's `base` and their locations numbered as in `merged`. Empty elsewhere.
std::vector<mtfbin::IndexEntry> gatherColumnIndex(World& world,
                                                  const std::vector<mtfbin::IndexEntry>& mine,
                                                  uint64_t base,
                                                  const compaction::CompactModel& merged);

struct SpoolPart {
  std::filesystem::path spool;              // this process's column chunks (ColumnSpool)
  uint64_t bytes = 0;                       // its size
  std::vector<mtfbin::IndexEntry> entries;  // its chunks, location ids in locationIndex
};

struct ArchiveWrite {
  uint64_t size = 0;           // the archive's size (on rank 0)
  std::exception_ptr failure;  // this process's write error (disk full, ...)
};

// Writes the archive at `archive` (every process takes part). `merged` is read on rank 0
// only: its locations give the index's location numbers. `scratch` is a file rank 0 may
// use for the archive's tail. A process's write error is returned, not thrown, so that
// every process still reaches the collective close and the caller can decide together.
ArchiveWrite writeParallelArchive(World& world, const std::filesystem::path& archive,
                                  const SpoolPart& mine, const compaction::CompactModel& merged,
                                  const std::filesystem::path& scratch);

}  // namespace mtf::mpi
