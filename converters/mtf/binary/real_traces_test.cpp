// Acceptance on the real traces: every trace read through the registry, written as .mtf,
// read back: the same definitions and exactly the same events (every field, attribute).
#include <gtest/gtest.h>

#include <filesystem>

#include "compaction/test_support.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "registry/registry.hpp"

namespace mtf::mtfbin {
namespace {

namespace fs = std::filesystem;

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
  EXPECT_EQ(back.defs.records(), original.defs.records());
  EXPECT_EQ(back.defs.clock, original.defs.clock);
  EXPECT_EQ(back.defs.info.properties, original.defs.info.properties);
  // The archive gives locations one after the other; compare each location's sequence.
  std::map<LocationId, std::vector<Event>> a, b;
  for (const Event& e : original.events) a[e.location].push_back(e);
  for (const Event& e : back.events) b[e.location].push_back(e);
  ASSERT_EQ(a.size(), b.size());
  for (auto& [loc, events] : a)
    EXPECT_EQ(compaction::testing::firstDifference(b[loc], events, original.defs), "")
        << "location " << loc;
  const auto f = reader.model()->totalFigures();
  EXPECT_EQ(f.events, original.events.size());
  EXPECT_LE(f.dagNodes, f.treeNodes);
}

INSTANTIATE_TEST_SUITE_P(
    Traces, RealTrace,
    ::testing::Values("otf2/pipit-ping-pong/traces.otf2", "otf2/pipit-ping-pong-papi/traces.otf2",
                      "otf2/sst-macro-mpi/traces.otf2", "otf2/fastotf2-mi300/traces.otf2",
                      "paraver/paraver-kernel-qsort/qsort_beo3.prv",
                      "paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv",
                      "tau/opencl-l5", "tau/opencl-l9"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = std::to_string(info.index);
      for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

}  // namespace
}  // namespace mtf::mtfbin
