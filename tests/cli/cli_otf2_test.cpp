// The OTF2 acceptance of the foundation, end to end through the `mtf` program, on every
// real OTF2 trace: `info --json` counts match otf2-print by kind, and `convert` to OTF2
// gives identical otf2-print event lines and an archive otf2-print -Werror accepts.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"
#include "converters/otf2/otf2_test_util.hpp"

using mtf::otf2::testing::otf2PrintCounts;
using mtf::otf2::testing::otf2PrintName;
using mtf::test::mtfProgram;
using mtf::test::run;

namespace {

const char* kTraces[] = {"pipit-ping-pong", "pipit-ping-pong-papi", "sst-macro-mpi",
                         "fastotf2-mi300"};

std::string anchorOf(const std::string& name) {
  return std::string(MTF_DATA_DIR) + "/otf2/" + name + "/traces.otf2";
}

class RealOtf2 : public ::testing::TestWithParam<const char*> {};

TEST_P(RealOtf2, InfoCountsMatchOtf2Print) {
  const std::string anchor = anchorOf(GetParam());
  const auto r = run(mtfProgram() + " info --json " + anchor, false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  std::map<std::string, uint64_t> ours;
  uint64_t total = 0;
  for (const auto& [kind, n] : j["events_by_kind"].items()) {
    ours[otf2PrintName(kind)] = n.get<uint64_t>();
    total += n.get<uint64_t>();
  }
  EXPECT_EQ(ours, otf2PrintCounts(anchor));
  EXPECT_EQ(j["events"].get<uint64_t>(), total);
  for (const char* key :
       {"format", "locations", "events", "events_by_kind", "resolution", "time_span_ticks"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["format"], "otf2");
}

TEST_P(RealOtf2, ConvertToOtf2IsIdentical) {
  const std::string anchor = anchorOf(GetParam());
  const std::string dir = mtf::test::freshTempDir(std::string("conv-") + GetParam());
  const std::string out = dir + "/copy.otf2";
  const auto r = run(mtfProgram() + " -q convert " + anchor + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(mtf::otf2::testing::otf2PrintEventLines(anchor),
            mtf::otf2::testing::otf2PrintEventLines(out));
  const auto check = run("otf2-print --silent -Werror " + out);
  EXPECT_EQ(check.status, 0) << check.output;
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, RealOtf2, ::testing::ValuesIn(kTraces));

}  // namespace
