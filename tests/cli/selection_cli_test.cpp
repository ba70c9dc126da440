// mtf convert's selection options: errors and warnings, an .mtf input read only for the
// selected locations, and Paraver cuts read by BSC's paramedir (skipped when absent).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/run_command.hpp"
#include "data/real_traces.hpp"

namespace mtf::test {
namespace {

namespace fs = std::filesystem;

const std::string kSst = std::string(MTF_DATA_DIR) + "/otf2/sst-macro-mpi/traces.otf2";

// stdout and stderr of `mtf ARGS` apart: the command's stderr goes to a file.
struct Outcome {
  int status = -1;
  std::string err;
};

Outcome mtf(const std::string& args, const std::string& dir) {
  const std::string err = dir + "/stderr.txt";
  const auto r = run("(" + mtfProgram() + " " + args + " 2>" + err + ")");
  return {r.status, readFile(err)};
}

nlohmann::json infoOf(const std::string& path) {
  const auto r = run(mtfProgram() + " -q info --json '" + path + "'", false);
  EXPECT_EQ(r.status, 0) << path;
  return nlohmann::json::parse(r.output);
}

TEST(SelectionCli, UnknownRanksAndLocationsAreBadInputAndWriteNothing) {
  const std::string dir = freshTempDir("select-errors");
  for (const std::string option :
       {"--ranks 10", "--ranks 'MPI Rank 10'", "--locations 11-12", "--locations 'GPU'"}) {
    const Outcome o = mtf("convert " + kSst + " -o " + dir + "/x.otf2 " + option, dir);
    EXPECT_EQ(o.status, 2) << option << ": " << o.err;
    EXPECT_NE(o.err.find("sst-macro-mpi/traces.otf2"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir + "/x.otf2")) << option;
    EXPECT_FALSE(fs::exists(dir + "/x")) << option;
  }
  const Outcome tau = mtf("convert " + std::string(MTF_DATA_DIR) +
                              "/otf2/fastotf2-mi300/traces.otf2 -o " + dir + "/y.prv --ranks 0",
                          dir);
  EXPECT_EQ(tau.status, 2);
  EXPECT_NE(tau.err.find("defines no MPI ranks (use --locations)"), std::string::npos) << tau.err;
}

TEST(SelectionCli, BadKindsListTheKnownOnesAndUnmatchedPatternsWarn) {
  const std::string dir = freshTempDir("select-kinds");
  const Outcome bad = mtf("convert " + kSst + " -o " + dir + "/x.otf2 --kinds Enter,Sends", dir);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("no event kind 'Sends' (known: BufferFlush,"), std::string::npos)
      << bad.err;
  EXPECT_FALSE(fs::exists(dir + "/x.otf2"));
  const Outcome warned =
      mtf("convert " + kSst + " -o " + dir + "/y.otf2 --exclude-regions 'NoSuch*,MPI_Wait*'", dir);
  EXPECT_EQ(warned.status, 0) << warned.err;
  EXPECT_NE(warned.err.find("warning: " + kSst + ": --exclude-regions 'NoSuch*' matches no region"),
            std::string::npos)
      << warned.err;
  EXPECT_EQ(warned.err.find("'MPI_Wait*' matches no region"), std::string::npos) << warned.err;
  const auto kinds = infoOf(dir + "/y.otf2")["events_by_kind"];
  const auto input = infoOf(kSst)["events_by_kind"];
  EXPECT_LT(kinds["Enter"].get<uint64_t>(), input["Enter"].get<uint64_t>());
  EXPECT_EQ(kinds["MpiIsend"], input["MpiIsend"]);  // what lies inside stays
}

// Each --regions takes one value: the INPUT after it stays the input; repeated, the
// patterns add up, as one comma-separated value does.
TEST(SelectionCli, RegionOptionsTakeOneValueEach) {
  const std::string dir = freshTempDir("select-repeat");
  ASSERT_EQ(
      mtf("-q convert --regions 'MPI_Irecv' --regions MPI_Isend " + kSst + " -o " + dir + "/a.otf2",
          dir)
          .status,
      0);
  ASSERT_EQ(
      mtf("-q convert " + kSst + " --regions 'MPI_Irecv,MPI_Isend' -o " + dir + "/b.otf2", dir)
          .status,
      0);
  const auto a = infoOf(dir + "/a.otf2")["events_by_kind"];
  EXPECT_EQ(a, infoOf(dir + "/b.otf2")["events_by_kind"]);
  EXPECT_EQ(a["Enter"], a["MpiIsend"].get<uint64_t>() + a["MpiIrecv"].get<uint64_t>());
}

// The archive is read only for the selected locations (the events it reads say so), and
// gives what the same cut of the original gives.
TEST(SelectionCli, ArchiveInputReadsOnlyTheSelectedLocations) {
  const std::string dir = freshTempDir("select-archive");
  ASSERT_EQ(mtf("-q convert " + kSst + " -o " + dir + "/s.mtf", dir).status, 0);
  const Outcome fromArchive =
      mtf("convert " + dir + "/s.mtf -o " + dir + "/a.otf2 --ranks 3,5-6", dir);
  ASSERT_EQ(fromArchive.status, 0) << fromArchive.err;
  ASSERT_EQ(mtf("-q convert " + kSst + " -o " + dir + "/b.otf2 --ranks 3,5-6", dir).status, 0);
  const auto dumpA = run(mtfProgram() + " -q dump " + dir + "/a.otf2", false);
  const auto dumpB = run(mtfProgram() + " -q dump " + dir + "/b.otf2", false);
  EXPECT_EQ(dumpA.output, dumpB.output);
  const uint64_t total = infoOf(kSst)["events"];
  const uint64_t kept = infoOf(dir + "/a.otf2")["events"];
  std::ostringstream expected;
  expected << "kept " << kept << " of ";
  const size_t at = fromArchive.err.find(expected.str());
  ASSERT_NE(at, std::string::npos) << fromArchive.err;
  const uint64_t read = std::stoull(fromArchive.err.substr(at + expected.str().size()));
  EXPECT_LT(read, total / 2) << "3 of 10 ranks read " << read << " of " << total << " events";
  EXPECT_EQ(infoOf(dir + "/a.otf2")["locations"], 3);
}

// paramedir's #Sends matrix summed over its thread rows.
uint64_t sendsInMatrix(const std::string& path) {
  std::istringstream in(readFile(path));
  std::string line;
  std::getline(in, line);  // column labels
  uint64_t sum = 0;
  while (std::getline(in, line) && !line.empty()) {
    std::istringstream cells(line);
    std::string cell;
    std::getline(cells, cell, '\t');  // the row's label
    while (std::getline(cells, cell, '\t'))
      if (!cell.empty()) sum += static_cast<uint64_t>(std::stod(cell));
  }
  return sum;
}

class SelectionParamedir : public ::testing::TestWithParam<std::string> {};

// Half the locations of every real trace as Paraver: paramedir reads the header of only
// the kept tasks and threads without an error, and counts every message of the cut.
TEST_P(SelectionParamedir, ReadsTheCut) {
  const char* env = std::getenv("PARAMEDIR");
  const std::string paramedir = env ? env : "/root/paraver/bin/paramedir";
  if (!fs::exists(paramedir)) GTEST_SKIP() << "paramedir not found at " << paramedir;
  const std::string in = std::string(MTF_DATA_DIR) + "/" + GetParam();
  const std::string dir = freshTempDir("select-paramedir");
  const auto locations = infoOf(in)["locations"].get<uint64_t>();
  const auto ids = run(mtfProgram() + " -q dump '" + in + "' | grep '^Location ' | head -" +
                           std::to_string((locations + 1) / 2) +
                           " | sed -E 's/^Location self=([0-9]+).*/\\1/' | paste -sd,",
                       false);
  std::string list = ids.output.substr(0, ids.output.find('\n'));
  const Outcome cut = mtf("-q convert '" + in + "' -o " + dir + "/t.prv --locations " + list, dir);
  ASSERT_EQ(cut.status, 0) << cut.err;
  const std::string cfg = std::string(MTF_SOURCE_DIR) + "/scripts/paramedir/comm_sends.cfg";
  const auto r = run("cd " + dir + " && " + paramedir + " t.prv " + cfg + " t.txt");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.find("Error reading"), std::string::npos) << r.output;
  const auto kinds = infoOf(dir + "/t.prv")["events_by_kind"];
  EXPECT_EQ(sendsInMatrix(dir + "/t.txt"),
            kinds.value("MpiSend", uint64_t{0}) + kinds.value("MpiIsend", uint64_t{0}));
}

INSTANTIATE_TEST_SUITE_P(RealTraces, SelectionParamedir, ::testing::ValuesIn(realTraces()),
                         [](const auto& info) { return traceTestName(info.index, info.param); });

}  // namespace
}  // namespace mtf::test
