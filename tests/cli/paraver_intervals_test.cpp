// Issue 28, part 3: what Paraver shows as intervals arrives as intervals. Every Extrae
// trace (tests/data, and ../shared/traces/paraver when present) converted to OTF2 holds
// an ENTER (otf2-print) for each Enter and State of the trace (states as regions on a
// location of their own, Extrae's begin/end types as regions), and the round trips
// Paraver -> OTF2 -> Paraver and Paraver -> .mtf -> Paraver give the records Paraver ->
// Paraver gives (as sets: the order among records of equal time may differ).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/run_command.hpp"
#include "converters/otf2/otf2_test_util.hpp"

namespace mtf::test {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> dataTraces() {
  return {std::string(MTF_DATA_DIR) + "/paraver/paraver-kernel-qsort/qsort_beo3.prv",
          std::string(MTF_DATA_DIR) +
              "/paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv"};
}

// The .prv of each folder of ../shared/traces/paraver (empty if absent).
std::vector<std::string> sharedTraces() {
  std::vector<std::string> traces;
  const fs::path root = fs::path(MTF_SHARED_DIR) / "traces" / "paraver";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return traces;
  for (const auto& dir : fs::directory_iterator(root))
    for (const auto& file : fs::directory_iterator(dir.path()))
      if (file.path().extension() == ".prv") traces.push_back(file.path().string());
  std::sort(traces.begin(), traces.end());
  return traces;
}

// The records of a plain .prv (every line after the header), sorted.
std::vector<std::string> sortedRecords(const std::string& prv) {
  std::ifstream in(prv);
  std::vector<std::string> records;
  std::string line;
  std::getline(in, line);  // the header (its date differs)
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') records.push_back(line);
  std::sort(records.begin(), records.end());
  return records;
}

// Events of kind `kind` in `mtf dump --events-only`.
uint64_t countKind(const std::string& dump, const std::string& kind) {
  std::istringstream in(dump);
  std::string line, location, time, k;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    if (words >> location >> time >> k && k == kind) ++n;
  }
  return n;
}

struct Conversion {
  bool ok = false;
  std::string output;
};

Conversion convert(const std::string& in, const std::string& out, const char* format) {
  const CommandResult r =
      run(mtfProgram() + " -q convert '" + in + "' -o '" + out + "' --to " + format + " --force");
  EXPECT_EQ(r.status, 0) << in << " -> " << format << ": " << r.output;
  return {r.status == 0, r.output};
}

// The trace opens in mtf (the Paraver readers of other issues may refuse some).
bool readable(const std::string& trace, std::string& dump) {
  const CommandResult r = run(mtfProgram() + " -q dump --events-only '" + trace + "'", false);
  dump = r.output;
  return r.status == 0;
}

// False if mtf does not read the trace (refusals are issue 28's parts 1-2).
bool checkTrace(const std::string& trace) {
  std::string dump;
  if (!readable(trace, dump)) {
    std::cout << trace << ": not read by mtf, not checked\n";
    return false;
  }
  const uint64_t enters = countKind(dump, "Enter"), states = countKind(dump, "State");
  const std::string dir = freshTempDir("intervals");
  if (!convert(trace, dir + "/t.otf2", "otf2").ok) return true;
  const auto printed = otf2::testing::otf2PrintCounts(dir + "/t.otf2");
  const auto enterIt = printed.find("ENTER");
  const uint64_t printedEnters = enterIt == printed.end() ? 0 : enterIt->second;
  EXPECT_GE(printedEnters, enters + states) << trace;
  if (!convert(trace, dir + "/direct.prv", "paraver").ok ||
      !convert(dir + "/t.otf2", dir + "/otf2.prv", "paraver").ok ||
      !convert(trace, dir + "/t.mtf", "mtf").ok ||
      !convert(dir + "/t.mtf", dir + "/mtf.prv", "paraver").ok)
    return true;
  const auto direct = sortedRecords(dir + "/direct.prv");
  EXPECT_FALSE(direct.empty());
  EXPECT_TRUE(sortedRecords(dir + "/otf2.prv") == direct)
      << trace << ": Paraver -> OTF2 -> Paraver";
  EXPECT_TRUE(sortedRecords(dir + "/mtf.prv") == direct) << trace << ": Paraver -> .mtf -> Paraver";
  std::cout << trace << ": " << enters << " Enter + " << states << " State, otf2-print "
            << printedEnters << " ENTER\n";
  fs::remove_all(dir);
  return true;
}

TEST(ParaverIntervals, ExtraeTracesOfTestDataBecomeRegionsAndRoundTrip) {
  for (const std::string& trace : dataTraces()) {
    SCOPED_TRACE(trace);
    EXPECT_TRUE(checkTrace(trace));
  }
}

TEST(ParaverIntervals, SharedExtraeTracesBecomeRegionsAndRoundTrip) {
  const auto traces = sharedTraces();
  if (traces.empty()) GTEST_SKIP() << MTF_SHARED_DIR << "/traces/paraver is absent (bare clone)";
  size_t checked = 0;
  for (const std::string& trace : traces) {
    SCOPED_TRACE(trace);
    checked += checkTrace(trace);
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace mtf::test
