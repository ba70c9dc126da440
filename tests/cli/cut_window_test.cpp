// Issue 31 (part A), end to end: `mtf convert --begin --end` on every real trace of
// tests/data into every writable format. The events the output holds must be exactly
// those the window keeps, worked out from the uncut trace's `mtf dump` (cut_counts.hpp),
// class by class where the format merges kinds, less what the writer reports dropped;
// calls are balanced (one Leave per Enter); the output is read by the format's own tool
// where the suite has it (otf2-print; BSC's paramedir when installed; a JSON parser for
// Chrome; mtf's strict readers for TAU and MTF); messages cut by the window are reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../data/real_traces.hpp"
#include "cli/cut_counts.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

struct Output {
  const char* format;
  const char* name;  // inside the test's directory
};
const Output kOutputs[] = {{"otf2", "out/t.otf2"}, {"paraver", "out/t.prv"}, {"tau", "out/tau"},
                           {"mtf", "t.mtf"},       {"mtf-xml", "t.mtf.xml"}, {"chrome", "t.json"}};

std::string dumpOf(const std::string& path) {
  const auto r = run(mtfProgram() + " -q dump --events-only " + path, false);
  EXPECT_EQ(r.status, 0) << "mtf dump " << path;
  return r.output;
}

std::string paramedir() {
  const char* env = std::getenv("PARAMEDIR");
  const std::string path = env ? env : "/root/paraver/bin/paramedir";
  return std::filesystem::exists(path) ? path : "";
}

// The middle fifth of the trace's events' times: [from, to).
std::pair<uint64_t, uint64_t> middleFifth(const std::vector<DumpEvent>& events) {
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (const DumpEvent& e : events) lo = std::min(lo, e.time), hi = std::max(hi, e.time);
  const uint64_t span = hi - lo;
  return {lo + span * 2 / 5, lo + span * 3 / 5 + 1};
}

// Chrome: every call one "X" event (no "B"/"E": calls balanced); returns the calls.
uint64_t chromeCalls(const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(readFile(path));
  uint64_t calls = 0;
  for (const auto& r : doc.at("traceEvents")) {
    const std::string ph = r.value("ph", "");
    EXPECT_TRUE(ph != "B" && ph != "E") << "an unbalanced call: " << r.dump();
    const std::string cat = r.value("cat", "");
    if (ph == "X" && cat != "message" && cat != "collective" && cat != "state") ++calls;
  }
  return calls;
}

void checkOwnTool(const std::string& format, const std::string& out, const Counts& expected) {
  if (format == "otf2") {
    const auto check = run("otf2-print --silent " + out);
    EXPECT_EQ(check.status, 0) << check.output;
  } else if (format == "chrome") {
    const uint64_t enters = expected.count("Enter") ? expected.at("Enter") : 0;
    EXPECT_EQ(chromeCalls(out), enters);
  }
}

// "  2 sends or receives without a partner (...)" of a writer's "dropped:" report.
uint64_t unpairedEnds(const std::string& stderrText) {
  const std::string what = " sends or receives without a partner";
  const size_t at = stderrText.find(what);
  if (at == std::string::npos) return 0;
  const size_t start = stderrText.rfind('\n', at) + 1;
  return std::stoull(stderrText.substr(start, at - start));
}

class CutWindow : public ::testing::TestWithParam<std::tuple<std::string, Output>> {};

TEST_P(CutWindow, KeepsExactlyTheWindowsEventsWithCallsBalanced) {
  const auto& [trace, output] = GetParam();
  const std::string in = std::string(MTF_DATA_DIR) + "/" + trace;
  const std::string dir =
      freshTempDir("cut-" + std::to_string(std::hash<std::string>()(trace)) + "-" + output.format);
  const std::string out = dir + "/" + output.name;
  const std::vector<DumpEvent> events = parseDump(dumpOf(in));
  const auto [from, to] = middleFifth(events);
  const auto conv = run(mtfProgram() + " convert " + in + " -o " + out + " --to " + output.format +
                        " --begin " + std::to_string(from) + "t --end " + std::to_string(to) + "t");
  ASSERT_EQ(conv.status, 0) << conv.output;
  const std::string stderrText = conv.output;  // convert prints nothing on stdout

  const ExpectedCut expected = expectedWindow(events, from, to);
  ASSERT_FALSE(expected.kinds.empty());
  EXPECT_EQ(expected.kinds.count("Enter") ? expected.kinds.at("Enter") : 0,
            expected.kinds.count("Leave") ? expected.kinds.at("Leave") : 0);
  checkOwnTool(output.format, out, expected.kinds);
  if (std::string(output.format) == "chrome") return;  // mtf does not read Chrome's JSON

  Counts wanted = expected.kinds;
  for (const auto& [kind, n] : droppedByKind(stderrText)) wanted[kind] -= std::min(wanted[kind], n);
  std::erase_if(wanted, [](const auto& kv) { return kv.second == 0; });
  const std::set<std::string> held = classesHeldBy(output.format);
  Counts got = byClass(countByKind(parseDump(dumpOf(out))), held);
  Counts want = byClass(wanted, held);
  // A format of one record per message (Paraver) drops the ends whose partner the cut
  // left out, reported as such: then only the sum of both ends is known.
  if (const uint64_t unpaired = unpairedEnds(stderrText)) {
    for (Counts* c : {&got, &want}) {
      (*c)["message ends"] = (*c)["messages sent"] + (*c)["messages received"];
      c->erase("messages sent");
      c->erase("messages received");
    }
    want["message ends"] -= std::min(want["message ends"], unpaired);
  }
  EXPECT_EQ(got, want) << stderrText;

  // Messages with one end outside: a send kept without its receive (or the reverse) at
  // least; the report names them.
  Counts messages = byClass(countByKind(parseDump(dumpOf(out))), classesHeldBy("tau"));
  if (messages["messages sent"] != messages["messages received"]) {
    EXPECT_NE(stderrText.find("messages whose partner lies outside the cut"), std::string::npos)
        << "window [" << from << ", " << to << "): " << stderrText;
  }
  if (expected.collectivesOpenAtEnd) {
    EXPECT_NE(stderrText.find(std::to_string(expected.collectivesOpenAtEnd) +
                              " collective operations still open"),
              std::string::npos)
        << stderrText;
  }
}

std::string caseName(const ::testing::TestParamInfo<std::tuple<std::string, Output>>& info) {
  std::string format = std::get<1>(info.param).format;
  std::replace(format.begin(), format.end(), '-', '_');
  return traceTestName(info.index, std::get<0>(info.param)) + "_to_" + format;
}

INSTANTIATE_TEST_SUITE_P(RealTraces, CutWindow,
                         ::testing::Combine(::testing::ValuesIn(breadthTraces()),
                                            ::testing::ValuesIn(kOutputs)),
                         caseName);

// The "cut off by" lines of a conversion's stderr.
std::string cutReport(const std::string& stderrText) {
  const size_t from = stderrText.find("cut off by");
  if (from == std::string::npos) return "";
  return stderrText.substr(from, stderrText.find("mtf: converted", from) - from);
}

// An .mtf input reads only the column chunks of the window and walks the DAG of those
// before it (64 Ki events a chunk: the ranks here have two or three): the cut must be the
// same as the one made from the OTF2 trace the archive was made from.
TEST(CutWindowArchive, ReadsOnlyTheWindowsChunksAndCutsTheSame) {
  const std::string dir = freshTempDir("cut-archive");
  const std::string otf2 = dir + "/wf.otf2", archive = dir + "/wf.mtf";
  ASSERT_EQ(run(genProgram() +
                " wavefront --ranks 4 --iterations 200 --inner 40 --noise 0.1 -q "
                "-o " +
                otf2)
                .status,
            0);
  ASSERT_EQ(run(mtfProgram() + " -q convert " + otf2 + " -o " + archive).status, 0);
  const std::vector<DumpEvent> events = parseDump(dumpOf(otf2));
  ASSERT_GT(events.size(), 4u * 70'000) << "each rank should span two chunks at least";
  uint64_t lo = ~uint64_t{0}, hi = 0;
  for (const DumpEvent& e : events) lo = std::min(lo, e.time), hi = std::max(hi, e.time);
  for (const auto& [a, b] : {std::pair{70, 72}, std::pair{3, 99}, std::pair{98, 100}}) {
    const std::string window = " --begin " + std::to_string(lo + (hi - lo) * a / 100) + "t --end " +
                               std::to_string(lo + (hi - lo) * b / 100) + "t";
    const std::string fromTrace = dir + "/t" + std::to_string(a) + ".mtf.xml";
    const std::string fromArchive = dir + "/a" + std::to_string(a) + ".mtf.xml";
    const auto t = run(mtfProgram() + " convert " + otf2 + " -o " + fromTrace + window);
    const auto r = run(mtfProgram() + " convert " + archive + " -o " + fromArchive + window);
    ASSERT_EQ(t.status, 0) << t.output;
    ASSERT_EQ(r.status, 0) << r.output;
    const std::string cut = dumpOf(fromTrace);
    EXPECT_GT(cut.size(), 0u);
    EXPECT_EQ(dumpOf(fromArchive), cut) << window;
    // The same loss report (messages cut), the same summary.
    EXPECT_EQ(cutReport(r.output), cutReport(t.output)) << window;
  }
}

// The Paraver cut read by BSC's own reader: no record it cannot read.
class CutWindowParamedir : public ::testing::TestWithParam<std::string> {};

TEST_P(CutWindowParamedir, ReadsTheCutWithoutError) {
  if (paramedir().empty())
    GTEST_SKIP() << "BSC's paramedir is not installed here (set PARAMEDIR); "
                    "scripts/check-paramedir.sh says how to build it";
  const std::string in = std::string(MTF_DATA_DIR) + "/" + GetParam();
  const std::string dir = freshTempDir("cut-pmd-" + std::to_string(std::hash<std::string>()(in)));
  const auto [from, to] = middleFifth(parseDump(dumpOf(in)));
  const auto conv = run(mtfProgram() + " -q convert " + in + " -o " + dir + "/t.prv --begin " +
                        std::to_string(from) + "t --end " + std::to_string(to) + "t");
  ASSERT_EQ(conv.status, 0) << conv.output;
  const std::string cfg = std::string(MTF_SOURCE_DIR) + "/scripts/paramedir/comm_sends.cfg";
  const auto check = run("cd " + dir + " && " + paramedir() + " t.prv " + cfg + " sends.txt");
  EXPECT_EQ(check.status, 0) << check.output;
  EXPECT_EQ(check.output.find("Error reading"), std::string::npos) << check.output;
  EXPECT_TRUE(std::filesystem::exists(dir + "/sends.txt")) << check.output;
}

INSTANTIATE_TEST_SUITE_P(RealTraces, CutWindowParamedir, ::testing::ValuesIn(realTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return traceTestName(info.index, info.param);
                         });

}  // namespace
