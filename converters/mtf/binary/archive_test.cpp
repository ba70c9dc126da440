// MTF binary archive: lossless round trip, random access, and refusal of damaged files.
#include "converters/mtf/binary/archive.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "compaction/test_support.hpp"
#include "util/error.hpp"

namespace mtf::mtfbin {
namespace {

namespace fs = std::filesystem;
using compaction::testing::CollectingSink;
using compaction::testing::firstDifference;
using compaction::testing::makeSyntheticTrace;
using compaction::testing::play;

class ArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mtf_archive_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const compaction::testing::SyntheticTrace& t, uint64_t chunkEvents = 100) {
    const fs::path p = dir_ / "t.mtf";
    ArchiveWriter w(p, compaction::CompactorOptions{chunkEvents, 6});
    play(t, w, /*interleave=*/true);
    return p;
  }
  static std::vector<uint8_t> bytesOf(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
  }
  fs::path writeBytes(const std::vector<uint8_t>& b) {
    const fs::path p = dir_ / "bad.mtf";
    std::ofstream(p, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    return p;
  }
  fs::path dir_;
};

std::vector<Event> readAll(const fs::path& p) {
  ArchiveSource source(p, ReadOptions{});
  CollectingSink sink;
  source.read(sink);
  return sink.events;
}

// Version 7's chunk header: kind, CRC, varint stored and raw sizes (24 bytes before it).
TEST(ChunkHeader, SizeFollowsTheVarintsOfVersionSeven) {
  EXPECT_EQ(chunkHeaderSize(6, 31), 24u);
  EXPECT_EQ(chunkHeaderSize(7, 31), 7u);
  EXPECT_EQ(chunkHeaderSize(7, 127), 7u);
  EXPECT_EQ(chunkHeaderSize(7, 128), 8u);
  EXPECT_EQ(chunkHeaderSize(7, 226, 365), 9u);
  EXPECT_EQ(chunkHeaderSize(7, UINT64_MAX, UINT64_MAX), kMaxChunkHeaderSize);
}

TEST_F(ArchiveTest, ChunksWrittenWithShortHeadersReadBack) {
  const fs::path p = dir_ / "chunks.mtf";
  std::vector<uint8_t> column(300, 7), structure(5000, 'x');
  column[0] = 1;
  ChunkFileWriter w(p);
  const auto a = w.writeChunk(ChunkKind::Columns, column, false);
  const auto b = w.writeChunk(ChunkKind::Structure, structure, true);
  EXPECT_EQ(a.offset, kHeaderSize);
  EXPECT_EQ(b.offset, a.offset + chunkHeaderSize(kVersion, column.size()) + column.size());
  w.writeTrailer(b.offset);
  w.close();
  ChunkFileReader r(p);
  EXPECT_EQ(r.version(), kVersion);
  const uint64_t limit = r.fileSize() - kTrailerSize;
  EXPECT_EQ(r.readChunk(a.offset, ChunkKind::Columns, limit, "columns"), column);
  EXPECT_EQ(r.readChunk(b.offset, ChunkKind::Structure, limit, "structure"), structure);
  EXPECT_EQ(r.fileSize() - kTrailerSize,
            b.offset + chunkHeaderSize(kVersion, b.storedSize, structure.size()) + b.storedSize);
  EXPECT_THROW(r.readChunk(a.offset, ChunkKind::Structure, limit, "columns"), InputError);
}

TEST_F(ArchiveTest, RoundTripIsLossless) {
  const auto t = makeSyntheticTrace(4, 60, 11);
  const fs::path p = write(t);
  EXPECT_EQ(firstDifference(readAll(p), t.events, t.defs), "");
  ArchiveReader r(p);
  EXPECT_EQ(r.model()->definitions.records(), t.defs.records());
  EXPECT_GT(r.sizes().columnChunks, 4u);
  EXPECT_NO_THROW(r.verifyEverything());
  EXPECT_TRUE(looksLikeMtfBinary(p));
}

TEST_F(ArchiveTest, InMemoryModelWritesTheSameEvents) {
  const auto t = makeSyntheticTrace(3, 20, 12);
  compaction::Compactor c(compaction::CompactorOptions{50, 6});
  play(t, c);
  const fs::path p = dir_ / "m.mtf";
  writeArchive(c.model(), p);
  EXPECT_EQ(firstDifference(readAll(p), t.events, t.defs), "");
}

TEST_F(ArchiveTest, ReadsOneLocationOrOneTimeWindow) {
  const auto t = makeSyntheticTrace(4, 80, 13, false);
  const fs::path p = write(t, 64);
  const LocationId third = t.events[t.events.size() / 4 * 2 + 5].location;
  ArchiveSource one(p, ReadOptions{});
  one.selectLocations({third});
  CollectingSink sink;
  one.read(sink);
  std::vector<Event> expected;
  for (const Event& e : t.events)
    if (e.location == third) expected.push_back(e);
  EXPECT_EQ(firstDifference(sink.events, expected, t.defs), "");

  const Tick from = t.events[300].time, to = t.events[400].time;
  ArchiveSource window(p, ReadOptions{});
  window.setWindow({from, to});
  CollectingSink windowSink;
  window.read(windowSink);
  expected.clear();
  for (const Event& e : t.events)
    if (e.time >= from && e.time <= to) expected.push_back(e);
  EXPECT_EQ(firstDifference(windowSink.events, expected, t.defs), "");
}

// Opens and fully verifies; returns the error message ("" if accepted).
std::string refusal(const fs::path& p) {
  try {
    ArchiveReader r(p);
    r.verifyEverything();
    readAll(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_F(ArchiveTest, TruncatedFilesAreRefused) {
  const fs::path p = write(makeSyntheticTrace(2, 30, 14));
  const std::vector<uint8_t> good = bytesOf(p);
  for (size_t cut : {size_t{0}, size_t{7}, size_t{20}, good.size() / 3, good.size() / 2,
                     good.size() - 33, good.size() - 1}) {
    std::vector<uint8_t> bad(good.begin(), good.begin() + static_cast<ptrdiff_t>(cut));
    EXPECT_NE(refusal(writeBytes(bad)), "") << "accepted a file cut at " << cut;
  }
}

TEST_F(ArchiveTest, BitFlipInEveryChunkKindIsRefusedWithItsOffset) {
  const fs::path p = write(makeSyntheticTrace(2, 30, 15));
  const std::vector<uint8_t> good = bytesOf(p);
  // One flip in the middle of the stored bytes of the first column chunk and of the
  // Structure chunk, in each one's stored size field, in the trailer and in the header.
  ChunkFileReader raw(p);
  const uint64_t structureAt = raw.indexOffset();
  const std::vector<uint8_t> content =
      raw.readChunk(structureAt, ChunkKind::Structure, good.size() - kTrailerSize, "structure");
  compaction::CompactModel model;
  std::vector<IndexEntry> index;
  decodeStructure(content, kVersion, model, index);
  ASSERT_FALSE(index.empty());
  const IndexEntry& columns = index.front();
  // Version 7's short headers: byte 5 is the first of the stored size's varint.
  const uint64_t structureStored = good.size() - kTrailerSize - structureAt - kMaxChunkHeaderSize;
  const std::vector<uint64_t> offsets = {
      columns.offset + chunkHeaderSize(kVersion, columns.storedSize) + columns.storedSize / 2,
      columns.offset + 5,
      structureAt + kMaxChunkHeaderSize + structureStored / 2,
      structureAt + 5,
      good.size() - 20,
      3};
  for (uint64_t at : offsets) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= 0x10;
    const std::string message = refusal(writeBytes(bad));
    EXPECT_NE(message, "") << "accepted a flipped bit at byte " << at;
    EXPECT_NE(message.find("byte"), std::string::npos) << message;
  }
}

// Version 2 (tests/golden/archives/example.v2.mtf): six zlib structure chunks and an
// index, still read, and still refused when one of them is damaged.
TEST_F(ArchiveTest, VersionTwoReadsAndRefusesDamageInEveryChunkKind) {
  const fs::path v2 = fs::path(MTF_SOURCE_DIR) / "tests/golden/archives/example.v2.mtf";
  const std::vector<uint8_t> good = bytesOf(v2);
  ASSERT_EQ(good.at(8), 2u);
  EXPECT_EQ(refusal(v2), "");
  EXPECT_EQ(readAll(v2).size(), 16u);
  ChunkFileReader raw(v2);
  EXPECT_EQ(raw.version(), 2u);
  const std::vector<IndexEntry> index = decodeIndex(
      raw.readChunk(raw.indexOffset(), ChunkKind::Index, good.size() - kTrailerSize, "index"));
  std::vector<bool> kindDone(kLastChunkKind + 1, false);
  std::vector<uint64_t> offsets = {raw.indexOffset() + kFixedChunkHeaderSize + 1};
  for (const IndexEntry& e : index) {
    if (kindDone[static_cast<size_t>(e.kind)]) continue;
    kindDone[static_cast<size_t>(e.kind)] = true;
    offsets.push_back(e.offset + kFixedChunkHeaderSize + e.storedSize / 2);
  }
  EXPECT_EQ(std::count(kindDone.begin(), kindDone.end(), true), 6);  // all but Index itself
  for (uint64_t at : offsets) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= 0x10;
    EXPECT_NE(refusal(writeBytes(bad)), "") << "accepted a flipped bit at byte " << at;
  }
}

TEST_F(ArchiveTest, NotAnArchiveIsRefused) {
  EXPECT_NE(refusal(writeBytes(std::vector<uint8_t>(100, 'x'))), "");
  EXPECT_FALSE(looksLikeMtfBinary(writeBytes(std::vector<uint8_t>(100, 'x'))));
}

}  // namespace
}  // namespace mtf::mtfbin
