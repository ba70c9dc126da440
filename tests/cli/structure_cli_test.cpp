// mtf signal, structure and chop end to end: the JSON contract, the CSV form, exit codes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_command.hpp"

namespace mtf::test {
namespace {

class StructureCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = freshTempDir("structure_cli");
    trace_ = dir_ + "/wave.otf2";
    const auto gen =
        run(genProgram() + " wavefront --ranks 16 --iterations 12 --inner 8 --noise 0.1 -q -o " +
            trace_);
    ASSERT_EQ(gen.status, 0) << gen.output;
  }
  static std::string dir_, trace_;
};
std::string StructureCli::dir_, StructureCli::trace_;

TEST_F(StructureCli, JsonHasTheIssuesKeys) {
  const auto r = run(mtfProgram() + " -q structure " + trace_ + " --json", false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  ASSERT_TRUE(j.contains("regions"));
  ASSERT_FALSE(j["regions"].empty());
  bool periodic = false;
  for (const auto& region : j["regions"]) {
    for (const char* key :
         {"kind", "start", "end", "period", "iterations", "found_by", "mpi_fraction", "children"})
      EXPECT_TRUE(region.contains(key)) << key;
    if (region["kind"] == "periodic") {
      periodic = true;
      EXPECT_EQ(region["found_by"], "autocorrelation");
      EXPECT_EQ(region["iterations"], 12);
      EXPECT_GT(region["period"].get<uint64_t>(), 0u);
    }
  }
  EXPECT_TRUE(periodic);
}

TEST_F(StructureCli, SignalAsCsv) {
  const auto r =
      run(mtfProgram() + " -q signal " + trace_ + " --what collective --bins 50 --csv", false);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind("bin,start_ticks,end_ticks,start_seconds,collective\n", 0), 0u);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 51);
}

TEST_F(StructureCli, BadRequestsFailWithTheirExitCodes) {
  EXPECT_EQ(run(mtfProgram() + " signal " + trace_ + " --what bogus").status, 1);
  EXPECT_EQ(
      run(mtfProgram() + " chop " + trace_ + " --iterations 2 --zone 9 -o " + dir_ + "/c.otf2")
          .status,
      1);
  EXPECT_EQ(
      run(mtfProgram() + " chop " + trace_ + " --iterations 99 -o " + dir_ + "/c.otf2").status, 1);
  EXPECT_EQ(run(mtfProgram() + " structure " + dir_ + "/missing.otf2").status, 2);
}

TEST_F(StructureCli, ChopReportsCutMessagesAndWrites) {
  const auto r = run(mtfProgram() + " chop " + trace_ + " --iterations 2 -o " + dir_ + "/c.prv");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("mtf: chopped"), std::string::npos) << r.output;
  const auto info = run(mtfProgram() + " -q info " + dir_ + "/c.prv --json", false);
  ASSERT_EQ(info.status, 0) << info.output;
  const auto j = nlohmann::json::parse(info.output);
  EXPECT_EQ(j["nesting"]["unbalanced_locations"], 0);
}

}  // namespace
}  // namespace mtf::test
