// Every real trace (and generated ones) converted to Chrome JSON is loaded by Chrome
// DevTools' trace engine (check_trace.mjs): it must parse with no error, find every call
// (one slice per Enter) and every message (one arrow per send the trace's receives
// match, on each channel in order).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "cli/run_command.hpp"
#include "data/real_traces.hpp"
#include "model/mpi_ranks.hpp"
#include "registry/registry.hpp"

namespace mtf::test {
namespace {

namespace fs = std::filesystem;

// What the engine must find, counted from the trace itself.
struct Expected : TraceSink {
  uint64_t enters = 0, states = 0, collectives = 0, messages = 0, matched = 0, withoutRank = 0;
  std::map<std::tuple<int64_t, int64_t, uint64_t, uint64_t>, std::pair<uint64_t, uint64_t>>
      channels;
  std::unique_ptr<RankMap> ranks;
  void begin(const Definitions& d) override { ranks = std::make_unique<RankMap>(d); }
  void event(const Event& e) override {
    enters += e.kind == EventKind::Enter;
    states += e.kind == EventKind::State;
    collectives += e.kind == EventKind::MpiCollectiveEnd;
    if (!isMpiPointToPoint(e.kind)) return;
    ++messages;
    const int64_t self = ranks->worldRank(e.location);
    const int64_t partner =
        ranks->worldRankOf(static_cast<Ref>(e.fields[1]), e.fields[0], e.location);
    if (self < 0 || partner < 0) return void(++withoutRank);
    const bool send = isSend(e.kind);
    auto& [sends, receives] =
        channels[{send ? self : partner, send ? partner : self, e.fields[1], e.fields[2]}];
    ++(send ? sends : receives);
  }
  void end() override {
    for (const auto& [channel, counts] : channels) matched += std::min(counts.first, counts.second);
  }
};

std::string engineDir() {
  return MTF_CHROME_ENGINE_DIR;
}

// Skips (returning false) when the engine could not be installed.
bool engineReady(std::string& why) {
  if (run("command -v node").status != 0) return why = "node is not installed", false;
  if (!fs::exists(engineDir() + "/node_modules/@paulirish/trace_engine"))
    return why = "the trace engine is not installed in " + engineDir() +
                 " (npm missing or offline; see the chrome_engine_setup test's output)",
           false;
  return true;
}

nlohmann::json engineCounts(const std::string& chromeFile) {
  const CommandResult r =
      run("node " + engineDir() + "/check_trace.mjs '" + chromeFile + "'", false);
  EXPECT_EQ(r.status, 0) << r.output;
  const size_t line = r.output.rfind('{');
  if (line == std::string::npos) return nlohmann::json::object();
  return nlohmann::json::parse(r.output.substr(line));
}

void checkTrace(const std::string& trace, const std::string& outName) {
  std::string why;
  if (!engineReady(why)) GTEST_SKIP() << why;
  const std::string dir = freshTempDir("chrome-engine");
  const std::string out = dir + "/" + outName;
  const CommandResult conversion =
      run(mtfProgram() + " -q convert '" + trace + "' -o '" + out + "'");
  ASSERT_EQ(conversion.status, 0) << conversion.output;
  Expected expected;
  openTrace(trace, {})->read(expected);
  const nlohmann::json found = engineCounts(out);
  EXPECT_EQ(found.value("errors", -1), 0) << found.dump();
  EXPECT_EQ(found.value("calls", uint64_t{0}), expected.enters);
  EXPECT_EQ(found.value("states", uint64_t{0}), expected.states);
  EXPECT_EQ(found.value("message_slices", uint64_t{0}), expected.messages);
  EXPECT_EQ(found.value("collectives", uint64_t{0}), expected.collectives);
  EXPECT_EQ(found.value("flows", uint64_t{0}), expected.matched);
  EXPECT_EQ(expected.withoutRank, 0u) << "messages the writer cannot join";
  std::cout << trace << ": " << found.dump() << "\n";
  fs::remove_all(dir);
}

class ChromeEngineOnRealTraces : public ::testing::TestWithParam<std::string> {};

TEST_P(ChromeEngineOnRealTraces, ParsesWithEveryCallAndMessage) {
  checkTrace(std::string(MTF_DATA_DIR) + "/" + GetParam(), "trace.json");
}

INSTANTIATE_TEST_SUITE_P(RealTraces, ChromeEngineOnRealTraces, ::testing::ValuesIn(realTraces()),
                         [](const auto& info) { return traceTestName(info.index, info.param); });

// Paraver's states and Extrae's begin/end events of the shared folder's Extrae traces
// are slices too (issue 28): as many state slices as States, call slices as Enters.
TEST(ChromeEngine, SharedParaverTracesShowStatesAndCallsAsSlices) {
  const fs::path root = fs::path(MTF_SHARED_DIR) / "traces" / "paraver";
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " is absent (bare clone)";
  size_t checked = 0;
  for (const auto& dir : fs::directory_iterator(root))
    for (const auto& file : fs::directory_iterator(dir.path())) {
      if (file.path().extension() != ".prv") continue;
      const std::string trace = file.path().string();
      if (run(mtfProgram() + " -q info '" + trace + "'").status != 0) {
        std::cout << trace << ": not read by mtf, not checked\n";
        continue;
      }
      SCOPED_TRACE(trace);
      checkTrace(trace, "trace.json");
      ++checked;
    }
  EXPECT_GT(checked, 0u);
}

TEST(ChromeEngine, ReadsGzippedOutput) {
  checkTrace(std::string(MTF_DATA_DIR) + "/" + kGzippedQsort, "trace.json.gz");
}

// Sub-communicators, MPI_COMM_SELF messages and noise, generated with mtf-gen.
TEST(ChromeEngine, ReadsGeneratedTracesWithSubCommunicators) {
  std::string why;
  if (!engineReady(why)) GTEST_SKIP() << why;
  const std::string dir = freshTempDir("chrome-gen");
  const std::string trace = dir + "/gen.otf2";
  const CommandResult gen = run(genProgram() +
                                " halo --ranks 6 --iterations 3 --noise 0.1 "
                                "--split-comms --self-messages -o " +
                                trace);
  ASSERT_EQ(gen.status, 0) << gen.output;
  checkTrace(trace, "gen.json.gz");
  fs::remove_all(dir);
}

// Losses are reported like every writer's: a Score-P clock finer than a nanosecond
// rounds times (listed with their count), and --strict refuses, writing nothing.
TEST(ChromeOutput, ReportsRoundedTimesAndStrictRefuses) {
  const std::string dir = freshTempDir("chrome-strict");
  const std::string trace = std::string(MTF_DATA_DIR) + "/otf2/pipit-ping-pong/traces.otf2";
  const CommandResult lossy = run(mtfProgram() + " convert " + trace + " -o " + dir + "/a.json");
  EXPECT_EQ(lossy.status, 0) << lossy.output;
  EXPECT_NE(lossy.output.find("119 times not a whole number of nanoseconds (rounded)"),
            std::string::npos)
      << lossy.output;
  const CommandResult strict =
      run(mtfProgram() + " convert " + trace + " -o " + dir + "/b.json --strict");
  EXPECT_EQ(strict.status, 2) << strict.output;
  EXPECT_FALSE(fs::exists(dir + "/b.json"));
  EXPECT_TRUE(fs::exists(dir + "/a.json"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mtf::test
