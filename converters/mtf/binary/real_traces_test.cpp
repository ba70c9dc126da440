// Acceptance on the real traces: every trace read through the registry, written as .mtf,
// read back: the same definitions and exactly the same events (every field, attribute).
#include "tests/data/real_traces.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "compaction/test_support.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "converters/mtf/binary/archive_io.hpp"
#include "registry/registry.hpp"

namespace mtf::mtfbin {
namespace {

namespace fs = std::filesystem;

// The same definitions, clock and properties, and each location's events in the same order
// (an archive gives locations one after the other, a trace's reader may interleave them).
void expectSameTrace(const compaction::testing::CollectingSink& back,
                     const compaction::testing::CollectingSink& original) {
  EXPECT_EQ(back.defs.records(), original.defs.records());
  EXPECT_EQ(back.defs.clock, original.defs.clock);
  EXPECT_EQ(back.defs.info.properties, original.defs.info.properties);
  std::map<LocationId, std::vector<Event>> a, b;
  for (const Event& e : original.events) a[e.location].push_back(e);
  for (const Event& e : back.events) b[e.location].push_back(e);
  ASSERT_EQ(a.size(), b.size());
  for (auto& [loc, events] : a)
    EXPECT_EQ(compaction::testing::firstDifference(b[loc], events, original.defs), "")
        << "location " << loc;
}

class RealTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTrace, RoundTripsThroughMtfBinaryExactly) {
  const fs::path input = fs::path(MTF_DATA_DIR) / GetParam();
  if (!fs::exists(input)) GTEST_SKIP() << input << " not present";
  compaction::testing::CollectingSink original;
  openTrace(input, ReadOptions{})->read(original);
  ASSERT_FALSE(original.events.empty());

  const fs::path out =
      fs::temp_directory_path() / ("mtf_real_" + std::to_string(::getpid()) + ".mtf");
  {
    ArchiveWriter writer(out, compaction::CompactorOptions{1000, 6, 1});
    openTrace(input, ReadOptions{})->read(writer);
  }
  ArchiveReader reader(out);
  EXPECT_NO_THROW(reader.verifyEverything());
  compaction::testing::CollectingSink back;
  ArchiveSource(out, ReadOptions{}).read(back);
  fs::remove(out);
  expectSameTrace(back, original);
  const auto f = reader.model()->totalFigures();
  EXPECT_EQ(f.events, original.events.size());
  EXPECT_LE(f.dagNodes, f.treeNodes);
}

// An archive of a trace of tests/data (`input`, by default TAU's opencl-l5) that an older
// mtf wrote reads to exactly what the trace's reader makes of it today.
void expectOldArchiveReadsAsItsTrace(const std::string& name, uint32_t version,
                                     const std::string& trace = "tau/opencl-l5") {
  const fs::path input = fs::path(MTF_DATA_DIR) / trace;
  const fs::path archive = fs::path(MTF_SOURCE_DIR) / "tests/golden/archives" / name;
  ASSERT_EQ(ChunkFileReader(archive).version(), version);
  compaction::testing::CollectingSink original, back;
  openTrace(input, ReadOptions{})->read(original);
  ArchiveSource(archive, ReadOptions{}).read(back);
  expectSameTrace(back, original);
}

// Version 3: its texts references into the TAU edf held as a property.
TEST(VersionThree, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v3.mtf", 3);
}

// Version 4: its texts derived, its edf pieces of them, its Comm names spelled out.
TEST(VersionFour, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v4.mtf", 4);
}

// Version 5: its definitions without the built-in vocabulary of version 6.
TEST(VersionFive, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v5.mtf", 5);
}

// Version 6: its chunks with the fixed 24-byte headers of versions 1 to 6.
TEST(VersionSix, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v6.mtf", 6);
}

// Version 7: its column chunks all of coding 5 (zstd), none range coded (coding 6).
TEST(VersionSeven, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v7.mtf", 7);
}

// Version 8: its column chunks range coded with coding 6 (coding 7's simpler models, every
// time residual before the values).
TEST(VersionEight, TauArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("opencl-l5.v8.mtf", 8);
}
TEST(VersionEight, ParaverArchiveReadsAsItsTrace) {
  expectOldArchiveReadsAsItsTrace("paraver-kernel-qsort.v8.mtf", 8,
                                  "paraver/paraver-kernel-qsort/qsort_beo3.prv");
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTrace, ::testing::ValuesIn(mtf::test::realTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return mtf::test::traceTestName(info.index, info.param);
                         });

}  // namespace
}  // namespace mtf::mtfbin
