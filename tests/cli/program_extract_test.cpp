// Issue 18: `mtf extract` (the seed's data extractor) against a direct computation from
// `mtf dump`: on the generated wavefront, the backward sweep (tags 3 and 4) is the second
// inner loop; each run of its messages on a rank is one occurrence, whose duration is the
// time of its last message minus that of its first.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

// rank -> durations of the runs of backward-sweep messages, from `mtf dump` (location id
// = rank in generated OTF2 traces).
std::map<int64_t, std::vector<uint64_t>> sweepDurationsFromDump(const std::string& trace) {
  const CommandResult r = run(mtfProgram() + " -q dump --events-only " + trace, false);
  EXPECT_EQ(r.status, 0);
  std::map<int64_t, std::vector<uint64_t>> out;
  std::map<int64_t, std::pair<uint64_t, uint64_t>> open;  // rank -> (first, last) of a run
  std::map<int64_t, bool> inRun;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string location, kind;
    uint64_t time = 0;
    f >> location >> time >> kind;
    if (kind != "MpiSend" && kind != "MpiRecv" && kind != "MpiIsend" && kind != "MpiIrecv" &&
        kind != "MpiCollectiveEnd")
      continue;
    const int64_t rank = std::stoll(location.substr(1));
    const bool backward =
        line.find(" tag=3 ") != std::string::npos || line.find(" tag=4 ") != std::string::npos;
    if (backward) {
      if (!inRun[rank]) open[rank].first = time;
      open[rank].second = time;
      inRun[rank] = true;
    } else if (inRun[rank]) {
      out[rank].push_back(open[rank].second - open[rank].first);
      inRun[rank] = false;
    }
  }
  return out;
}

TEST(ProgramExtract, SecondInnerLoopDurationsMatchTheEvents) {
  const std::string dir = freshTempDir("program-extract");
  const std::string trace = dir + "/wavefront.otf2";
  ASSERT_EQ(
      run(genProgram() + " wavefront --ranks 16 --iterations 249 --inner 6 -q -o " + trace).status,
      0);
  const std::string positions = run(mtfProgram() + " -q model --positions " + trace, false).output;
  ASSERT_NE(positions.find("\n  2.1 for i1 = 1 to 6 [0-15]\n"), std::string::npos) << positions;
  const CommandResult r = run(
      mtfProgram() + " -q extract " + trace + " --construct 2.1 --get duration --ranks 0,1,5 --csv",
      false);
  ASSERT_EQ(r.status, 0) << r.output;
  const auto expected = sweepDurationsFromDump(trace);
  std::istringstream in(r.output);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "rank,i0,duration");
  std::map<int64_t, std::vector<uint64_t>> got;
  size_t records = 0;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    int64_t rank = 0;
    uint64_t i0 = 0, duration = 0;
    char c1, c2;
    f >> rank >> c1 >> i0 >> c2 >> duration;
    ASSERT_TRUE(f) << line;
    EXPECT_EQ(i0, got[rank].size() + 1) << line;
    got[rank].push_back(duration);
    ++records;
  }
  EXPECT_EQ(records, 3u * 249);
  for (int64_t rank : {0, 1, 5}) {
    ASSERT_EQ(got[rank].size(), 249u) << rank;
    EXPECT_EQ(got[rank], expected.at(rank)) << rank;
  }
  // The same records from the .mtf archive (its stored model, the chunks of ranks 0, 1, 5).
  const std::string archive = dir + "/wavefront.mtf";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + trace + " -o " + archive).status, 0);
  EXPECT_EQ(run(mtfProgram() + " -q extract " + archive +
                    " --construct 2.1 --get duration --ranks 0,1,5 --csv",
                false)
                .output,
            r.output);
}

TEST(ProgramExtract, BadArgumentsAreUsageErrors) {
  const std::string dir = freshTempDir("program-extract-bad");
  const std::string trace = dir + "/ring.otf2";
  ASSERT_EQ(run(genProgram() + " ring --ranks 4 --iterations 5 -q -o " + trace).status, 0);
  EXPECT_EQ(run(mtfProgram() + " -q extract " + trace + " --construct 2 --get speed").status, 1);
  EXPECT_EQ(run(mtfProgram() + " -q extract " + trace + " --construct 7.7 --get time").status, 1);
  EXPECT_EQ(run(mtfProgram() + " -q extract " + trace + " --construct 2 --get size").status, 1);
  EXPECT_EQ(
      run(mtfProgram() + " -q extract " + trace + " --construct 2 --get time --ranks x").status, 1);
}

}  // namespace
