#include "mpi/parallel_archive.hpp"

#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "converters/mtf/binary/archive.hpp"
#include "mpi/dag_merge.hpp"
#include "mpi/interrupt_watch.hpp"
#include "util/blob_cursor.hpp"
#include "util/error.hpp"
#include "util/interrupt.hpp"

namespace mtf::mpi {

using compaction::CompactModel;

namespace {

std::string encodeStructure(const CompactModel& m) {
  std::string out;
  for (const std::vector<uint8_t>& part :
       {mtfbin::encodeSignatures(m), mtfbin::encodeNodes(m), mtfbin::encodeLocations(m)})
    putBlobString(out, std::string_view(reinterpret_cast<const char*>(part.data()), part.size()));
  return out;
}

CompactModel decodeStructure(const std::string& bytes) {
  const std::string source = "mtf-mpi";
  BlobCursor in(bytes, source, "structure");
  auto next = [&in] {
    const std::string_view s = in.string();
    return std::vector<uint8_t>(s.begin(), s.end());
  };
  CompactModel m;
  mtfbin::decodeSignatures(next(), m);
  mtfbin::decodeNodes(next(), m);
  mtfbin::decodeLocations(next(), m);
  return m;
}

// The archive opened by every process with MPI-IO; closed by the destructor.
class ParallelFile {
 public:
  explicit ParallelFile(const std::filesystem::path& path) : path_(path) {
    const InsideMpi waiting;
    if (MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &file_) != MPI_SUCCESS)
      throw IoError(path.string(), "cannot create (MPI_File_open)");
  }
  ~ParallelFile() {
    const InsideMpi waiting;
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
  }
  ParallelFile(const ParallelFile&) = delete;
  ParallelFile& operator=(const ParallelFile&) = delete;

  void writeAt(uint64_t offset, const void* data, size_t size) {
    const auto* bytes = static_cast<const char*>(data);
    constexpr size_t kPiece = size_t{1} << 30;  // MPI counts are ints
    for (size_t at = 0; at < size; at += kPiece) {
      const int n = static_cast<int>(std::min(kPiece, size - at));
      if (MPI_File_write_at(file_, static_cast<MPI_Offset>(offset + at), bytes + at, n, MPI_BYTE,
                            MPI_STATUS_IGNORE) != MPI_SUCCESS)
        throw IoError(path_.string(), "write failed (MPI_File_write_at)");
    }
  }
  // Copies the file `from` to `offset`.
  void copyAt(uint64_t offset, const std::filesystem::path& from) {
    mtfbin::FileHandle in(std::fopen(from.c_str(), "rb"));
    if (!in) throw IoError(from.string(), std::string("cannot open: ") + std::strerror(errno));
    std::vector<char> buffer(size_t{8} << 20);
    for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), in.get())) > 0; offset += n)
      writeAt(offset, buffer.data(), n);
    if (std::ferror(in.get())) throw IoError(from.string(), "read failed");
  }
  void close() {
    const InsideMpi waiting;
    if (MPI_File_close(&file_) != MPI_SUCCESS)
      throw IoError(path_.string(), "close failed (MPI_File_close)");
  }

 private:
  std::filesystem::path path_;
  MPI_File file_ = MPI_FILE_NULL;
};

}  // namespace

std::vector<mtfbin::IndexEntry> gatherColumnIndex(World& world,
                                                  const std::vector<mtfbin::IndexEntry>& mine,
                                                  uint64_t base, const CompactModel& merged) {
  std::vector<mtfbin::IndexEntry> shifted = mine;
  for (mtfbin::IndexEntry& e : shifted) e.offset += base;
  const std::vector<uint8_t> encoded = mtfbin::encodeIndex(shifted);
  const std::vector<std::string> all = world.gather({encoded.begin(), encoded.end()});
  std::vector<mtfbin::IndexEntry> index;
  if (!world.isRoot()) return index;
  std::unordered_map<LocationId, size_t> position;
  for (size_t i = 0; i < merged.locations.size(); ++i)
    position.emplace(merged.locations[i].location, i);
  for (const std::string& part : all) {
    for (mtfbin::IndexEntry& e : mtfbin::decodeIndex({part.begin(), part.end()})) {
      e.locationIndex = position.at(e.locationIndex);
      index.push_back(std::move(e));
    }
  }
  return index;
}

CompactModel reduceStructure(World& world, CompactModel mine, const Definitions& defs) {
  world.reduceToRoot([&] { return encodeStructure(mine); },
                     [&](std::string&& bytes) {
                       const CompactModel received = decodeStructure(bytes);
                       mine = mergeStructures({&mine, &received}, defs);
                     });
  if (world.size() == 1) mine = mergeStructures({&mine}, defs);  // the same numbering
  return mine;
}

ArchiveWrite writeParallelArchive(World& world, const std::filesystem::path& archive,
                                  const SpoolPart& mine, const CompactModel& merged,
                                  const std::filesystem::path& scratch) {
  const uint64_t base = mtfbin::kHeaderSize + world.sumBefore(mine.bytes);
  const uint64_t tailStart = mtfbin::kHeaderSize + world.sum(mine.bytes);
  std::vector<mtfbin::IndexEntry> index = gatherColumnIndex(world, mine.entries, base, merged);
  ParallelFile file(archive);
  ArchiveWrite result;
  try {
    pauseForTest("write");
    throwIfInterrupted();
    if (mine.bytes > 0) file.copyAt(base, mine.spool);
    if (world.isRoot()) {
      const std::vector<uint8_t> header = mtfbin::ChunkFileWriter::fileHeader();
      file.writeAt(0, header.data(), header.size());
      mtfbin::ChunkFileWriter tail(scratch, tailStart);
      mtfbin::writeStructure(tail, merged, index);
      file.copyAt(tailStart, scratch);
      result.size = tailStart + std::filesystem::file_size(scratch);
    }
  } catch (const Interrupted&) {
    throw;
  } catch (...) {
    result.failure = std::current_exception();  // after the close, which every process calls
  }
  file.close();
  return result;
}

}  // namespace mtf::mpi
