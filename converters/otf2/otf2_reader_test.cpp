#include "converters/otf2/otf2_reader.hpp"

#include <gtest/gtest.h>

#include "converters/otf2/otf2_test_util.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;

const std::string kTraces = MTF_SHARED_DIR "/traces/otf2/";

std::map<std::string, uint64_t> countByOtf2Name(const std::vector<Event>& events) {
  std::map<std::string, uint64_t> counts;
  for (const Event& e : events) ++counts[testing::otf2PrintName(nameOf(e.kind))];
  return counts;
}

class RealTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTrace, EventCountsByKindMatchOtf2Print) {
  const std::filesystem::path dir = kTraces + GetParam();
  Otf2Reader reader(dir, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.begins, 1);
  EXPECT_EQ(sink.ends, 1);
  const auto expected = testing::otf2PrintCounts(dir / "traces.otf2");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(countByOtf2Name(sink.events), expected);
  EXPECT_TRUE(reader.unmodelled().empty());
}

INSTANTIATE_TEST_SUITE_P(Otf2, RealTrace,
                         ::testing::Values("pipit-ping-pong", "pipit-ping-pong-papi",
                                           "sst-macro-mpi", "fastotf2-mi300"));

}  // namespace
}  // namespace mtf::otf2
