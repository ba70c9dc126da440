// Paraver -> .mtf -> Paraver and Paraver -> OTF2 -> Paraver with `mtf convert`: the same
// records (as a set) for every Paraver trace here and in ../shared that mtf reads, and for
// the hand-written trace whose threads send to each other (issue 28); the writers whose
// formats name ranks only say what of those messages they cannot hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "cli/run_command.hpp"

namespace fs = std::filesystem;
using mtf::test::mtfProgram;
using mtf::test::run;

namespace {

const std::string kThreadTrace =
    MTF_DATA_DIR "/../handmade/paraver-thread-messages/thread_messages.prv";

// A state record `1:cpu:appl:task:thread:begin:end:state` whose end is before its begin
// (PyCOMPSs writes them): paraver-kernel reads it, but mtf's reader skips it with a
// warning, as Chrome and TAU cannot hold it (converters/paraver/REFUSALS.md).
bool isBackwardState(const std::string& line) {
  if (line.rfind("1:", 0) != 0) return false;
  std::vector<std::string> f;
  std::stringstream fields(line);
  for (std::string field; std::getline(fields, field, ':');) f.push_back(field);
  return f.size() == 8 && std::stoull(f[6]) < std::stoull(f[5]);
}

std::vector<std::string> sortedRecords(const std::string& prv) {
  std::ifstream in(prv);
  std::vector<std::string> records;
  for (std::string line; std::getline(in, line);)
    if (line.size() > 1 && line[1] == ':' && line[0] >= '1' && line[0] <= '4' &&
        !isBackwardState(line))
      records.push_back(line);
  std::sort(records.begin(), records.end());
  return records;
}

std::vector<std::string> paraverTraces(const fs::path& root) {
  std::vector<std::string> traces;
  if (!fs::is_directory(root)) return traces;
  for (const auto& folder : fs::directory_iterator(root))
    for (const auto& file : fs::directory_iterator(folder.path()))
      if (file.path().extension() == ".prv") traces.push_back(file.path().string());
  std::sort(traces.begin(), traces.end());
  return traces;
}

// Converts `trace` to `middle` (in a fresh folder) and back; false when mtf does not read
// the trace (exit 2 on the first step). Warnings may be printed, losses must not (the
// OTF2 ones of the thread trace are the last test's).
bool roundTrip(const std::string& trace, const std::string& middle,
               std::vector<std::string>& back) {
  const bool lossless = middle == "t.mtf" || trace != kThreadTrace;
  const std::string dir = mtf::test::freshTempDir("paraver-roundtrip");
  const auto there = run(mtfProgram() + " -q convert '" + trace + "' -o " + dir + "/" + middle);
  if (there.status == 2) return false;
  EXPECT_EQ(there.status, 0) << there.output;
  if (lossless) {
    EXPECT_EQ(there.output.find("cannot hold"), std::string::npos) << there.output;
  }
  const auto home =
      run(mtfProgram() + " -q convert " + dir + "/" + middle + " -o " + dir + "/back.prv");
  EXPECT_EQ(home.status, 0) << home.output;
  EXPECT_EQ(home.output.find("cannot hold"), std::string::npos) << home.output;
  back = sortedRecords(dir + "/back.prv");
  fs::remove_all(dir);
  return true;
}

void expectExactRoundTrips(const std::string& trace, bool mustRead) {
  SCOPED_TRACE(trace);
  const std::vector<std::string> expected = sortedRecords(trace);
  for (const char* middle : {"t.mtf", "t.otf2"}) {
    std::vector<std::string> back;
    if (!roundTrip(trace, middle, back)) {
      EXPECT_FALSE(mustRead) << "mtf refuses " << trace;
      std::cout << "[ note ] mtf does not read " << trace << " (no round trip)\n";
      return;
    }
    ASSERT_EQ(back.size(), expected.size()) << middle;
    EXPECT_TRUE(back == expected) << "via " << middle;
  }
}

TEST(ParaverRoundTrip, ThreadToThreadMessagesComeBackExactly) {
  expectExactRoundTrips(kThreadTrace, true);
}

TEST(ParaverRoundTrip, EveryTraceOfTestDataComesBackExactly) {
  const auto traces = paraverTraces(fs::path(MTF_DATA_DIR) / "paraver");
  ASSERT_GE(traces.size(), 2u);
  for (const std::string& trace : traces) expectExactRoundTrips(trace, true);
}

TEST(ParaverRoundTrip, EveryTraceOfTheSharedFolderThatReadsComesBackExactly) {
  const auto traces = paraverTraces(fs::path(MTF_SHARED_DIR) / "traces" / "paraver");
  if (traces.empty()) GTEST_SKIP() << "needs " << MTF_SHARED_DIR << "/traces/paraver";
  for (const std::string& trace : traces) expectExactRoundTrips(trace, false);
}

// OTF2 and TAU name ranks: they report the events whose partner is another thread (21 in
// the trace) and those matched out of channel order (6); --strict refuses. Chrome's flow
// arrows join threads and message ids, so it loses nothing.
TEST(ParaverRoundTrip, WritersThatNameRanksReportThreadMessages) {
  const std::string dir = mtf::test::freshTempDir("paraver-thread-losses");
  for (const char* output : {"t.otf2", "tau"}) {
    SCOPED_TRACE(output);
    const std::string to = std::string(output) == "tau" ? " --to tau" : "";
    const auto r =
        run(mtfProgram() + " -q convert " + kThreadTrace + " -o " + dir + "/" + output + to);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("21 message events whose partner is another thread"), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("6 message events matched out of their channel's order"),
              std::string::npos)
        << r.output;
    const auto strict = run(mtfProgram() + " -q convert " + kThreadTrace + " -o " + dir +
                            "/strict-" + output + to + " --strict");
    EXPECT_NE(strict.status, 0);
    EXPECT_FALSE(fs::exists(dir + "/strict-" + output));
  }
  const auto chrome =
      run(mtfProgram() + " -q convert " + kThreadTrace + " -o " + dir + "/t.json --strict");
  EXPECT_EQ(chrome.status, 0) << chrome.output;
  fs::remove_all(dir);
}

}  // namespace
