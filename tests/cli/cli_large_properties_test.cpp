// Issue 17: OTF2 output that OTF2 itself reads, whatever the size of what a trace keeps
// for the round trip. A TAU set whose .edf files are hundreds of KB (as a PETSc
// application's) converts to an archive otf2-print reads, with every message; back to TAU
// it gives the same files. An archive OTF2 cannot read is never reported as written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/large_tau_set.hpp"
#include "cli/run_command.hpp"

using mtf::test::mtfProgram;
using mtf::test::readFile;
using mtf::test::run;

namespace fs = std::filesystem;

namespace {

bool haveOtf2Print() {
  return run("command -v otf2-print").status == 0;
}

// Event records otf2-print lists of `kind` (e.g. MPI_SEND): the lines after the event
// header that start with the record name.
uint64_t otf2PrintRecords(const std::string& output, const std::string& kind) {
  std::istringstream in(output);
  uint64_t count = 0;
  bool inEvents = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("-----", 0) == 0) inEvents = true;
    if (inEvents && line.rfind(kind + " ", 0) == 0) ++count;
  }
  return count;
}

uint64_t eventsOfKind(const std::string& trace, const std::string& kind) {
  const auto r = run(mtfProgram() + " info --json " + trace, false);
  EXPECT_EQ(r.status, 0) << trace;
  const auto j = nlohmann::json::parse(r.output);
  return j["events_by_kind"].value(kind, uint64_t{0});
}

class LargeEdf : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = mtf::test::freshTempDir("large-edf");
    tau_ = dir_ + "/tau";
    fs::create_directories(tau_);
    written_ = mtf::test::writeLargeTauSet(tau_, {});
    for (const auto& entry : fs::directory_iterator(tau_)) {
      if (entry.path().extension() == ".edf") {
        ASSERT_GE(fs::file_size(entry.path()), 500u * 1024) << entry.path();
      }
    }
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string dir_, tau_;
  mtf::test::LargeTauCounts written_;
};

TEST_F(LargeEdf, ConvertsToOtf2ThatOtf2PrintReadsWithEveryMessage) {
  if (!haveOtf2Print()) GTEST_SKIP() << "needs otf2-print";
  // The input, counted by mtf's TAU reader, holds what the set was written with.
  ASSERT_EQ(eventsOfKind(tau_, "MpiSend"), written_.sends);
  ASSERT_EQ(eventsOfKind(tau_, "MpiRecv"), written_.receives);
  ASSERT_GT(written_.sends, 100u);

  const std::string out = dir_ + "/out.otf2";
  const auto convert = run(mtfProgram() + " -q convert " + tau_ + " -o " + out);
  ASSERT_EQ(convert.status, 0) << convert.output;
  const auto print = run("otf2-print " + out, false);
  ASSERT_EQ(print.status, 0) << run("otf2-print " + out + " 2>&1 >/dev/null").output;
  EXPECT_EQ(otf2PrintRecords(print.output, "MPI_SEND"), written_.sends);
  EXPECT_EQ(otf2PrintRecords(print.output, "MPI_RECV"), written_.receives);
  EXPECT_EQ(otf2PrintRecords(print.output, "ENTER"), written_.regionsEntered);
  const auto strict = run("otf2-print --silent -Werror " + out);
  EXPECT_EQ(strict.status, 0) << strict.output;
  EXPECT_EQ(run(mtfProgram() + " info " + out).status, 0);
}

// Lossless: TAU -> OTF2 -> TAU gives back the very same files, and the same dump.
TEST_F(LargeEdf, RoundTripThroughOtf2GivesBackTheSameFiles) {
  const std::string out = dir_ + "/out.otf2";
  const std::string back = dir_ + "/back";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + tau_ + " -o " + out).status, 0);
  const auto r = run(mtfProgram() + " -q convert " + out + " -o " + back + " --to tau");
  ASSERT_EQ(r.status, 0) << r.output;
  size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(tau_)) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(readFile(entry.path().string()) == readFile(back + "/" + name)) << name;
    ++compared;
  }
  EXPECT_EQ(compared, 8u);
  const auto dumpIn = run(mtfProgram() + " dump " + tau_, false);
  const auto dumpBack = run(mtfProgram() + " dump " + back, false);
  ASSERT_EQ(dumpIn.status, 0);
  EXPECT_TRUE(dumpIn.output == dumpBack.output);
}

// A creator longer than OTF2's whole anchor buffer (256 KiB): the library writes a broken
// anchor and reports success; the check after writing refuses it, and nothing is left.
TEST(UnreadableOtf2, IsAnIoErrorAndLeavesNoOutput) {
  const std::string dir = mtf::test::freshTempDir("unreadable-otf2");
  const std::string xml = dir + "/in.mtf.xml";
  ASSERT_EQ(run(mtf::test::genProgram() + " ring --ranks 2 --iterations 1 -q -o " + xml).status, 0);
  std::string text = readFile(xml);
  const std::string creator = "creator=\"mtf-gen";
  const size_t at = text.find(creator);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + creator.size(), std::string(300 * 1024, 'x'));
  std::ofstream(xml, std::ios::binary) << text;

  const auto r = run(mtfProgram() + " -q convert " + xml + " -o " + dir + "/out.otf2");
  EXPECT_EQ(r.status, 3) << r.output;
  // Named as the user named it, not by the staging path it was written to.
  EXPECT_EQ(
      r.output.rfind("mtf: " + dir + "/out.otf2: OTF2 cannot read the archive just written: ", 0),
      0u)
      << r.output;
  EXPECT_NE(r.output.find("Malformed anchor file"), std::string::npos) << r.output;
  size_t left = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != "in.mtf.xml") ++left;
  EXPECT_EQ(left, 0u) << "files left beside the input";
  fs::remove_all(dir);
}

}  // namespace
