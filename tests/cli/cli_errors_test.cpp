// Bad input and bad usage: one-line errors naming the path, documented exit codes, no
// partial output left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/run_command.hpp"

namespace fs = std::filesystem;
using mtf::test::mtfProgram;
using mtf::test::run;

namespace {

const std::string kPingPong = std::string(MTF_DATA_DIR) + "/otf2/pipit-ping-pong/traces.otf2";

TEST(CliErrors, HelpListsEveryCommand) {
  const auto r = run(mtfProgram() + " --help");
  EXPECT_EQ(r.status, 0);
  for (const char* cmd : {"info", "dump", "convert"})
    EXPECT_NE(r.output.find(cmd), std::string::npos) << cmd;
}

TEST(CliErrors, UnknownCommandIsUsageError) {
  EXPECT_EQ(run(mtfProgram() + " frobnicate").status, 1);
  EXPECT_EQ(run(mtfProgram() + " info").status, 1);  // missing TRACE
}

TEST(CliErrors, MissingPath) {
  const auto r = run(mtfProgram() + " info /no/such/trace.otf2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("/no/such/trace.otf2"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST(CliErrors, DirectoryWithoutTrace) {
  const std::string dir = mtf::test::freshTempDir("empty");
  const auto r = run(mtfProgram() + " info " + dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(dir), std::string::npos) << r.output;
}

TEST(CliErrors, GarbageFileIsNotATrace) {
  const std::string dir = mtf::test::freshTempDir("garbage");
  std::ofstream(dir + "/x.bin") << "this is not a trace\n";
  const auto r = run(mtfProgram() + " dump " + dir + "/x.bin");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("x.bin"), std::string::npos) << r.output;
}

TEST(CliErrors, UnwritableOutputLeavesNothing) {
  const std::string dir = mtf::test::freshTempDir("unwritable");
  const std::string file = dir + "/plain";
  ASSERT_EQ(run("echo x > " + file).status, 0);
  const auto r = run(mtfProgram() + " convert " + kPingPong + " -o " + file + "/out.otf2");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find(file + " is not a directory"), std::string::npos) << r.output;
  EXPECT_EQ(run("ls -A " + dir).output, "plain\n");
}

TEST(CliErrors, MissingOutputDirectoryIsCreated) {
  const std::string dir = mtf::test::freshTempDir("mkdir");
  const std::string out = dir + "/restored/deeper/traces.otf2";
  const auto r = run(mtfProgram() + " -q convert " + kPingPong + " -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(run("otf2-print --silent " + out).status, 0);
  // A refused conversion into a missing directory leaves no directory behind.
  const auto refused =
      run(mtfProgram() + " -q convert " + kPingPong + " -o " + dir + "/other/x.bin");
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_EQ(run("ls -A " + dir).output, "restored\n");
}

TEST(CliErrors, ExistingOutputNeedsForceAndOutputIsNeverInput) {
  const std::string dir = mtf::test::freshTempDir("force");
  const std::string out = dir + "/t.otf2";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + kPingPong + " -o " + out).status, 0);
  EXPECT_EQ(run(mtfProgram() + " -q convert " + kPingPong + " -o " + out).status, 3);
  EXPECT_EQ(run(mtfProgram() + " -q convert " + kPingPong + " -o " + out + " --force").status, 0);
  EXPECT_EQ(run(mtfProgram() + " -q convert " + out + " -o " + out + " --force").status, 1);
  // Only the archive's own entries, no staging leftovers.
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".mtf-tmp"), std::string::npos) << e.path();
}

TEST(CliErrors, UnknownOutputFormat) {
  const std::string dir = mtf::test::freshTempDir("fmt");
  EXPECT_EQ(run(mtfProgram() + " convert " + kPingPong + " -o " + dir + "/x.unknownext").status, 1);
  EXPECT_EQ(run(mtfProgram() + " convert " + kPingPong + " -o " + dir + "/x --to nope").status, 1);
  EXPECT_TRUE(fs::is_empty(dir));
}

}  // namespace
