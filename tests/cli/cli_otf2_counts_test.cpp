// Issue 17, through the `mtf` program: an OTF2 anchor declaring more global definitions
// than its definitions file holds is read as the file says, with one warning line on stderr.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli/run_command.hpp"

using mtf::test::mtfProgram;
using mtf::test::readFile;
using mtf::test::run;

namespace fs = std::filesystem;

namespace {

TEST(Otf2DeclaredCounts, InfoWarnsOnceAndReadsAsTheFileSays) {
  const std::string dir = mtf::test::freshTempDir("otf2-counts");
  fs::copy(std::string(MTF_DATA_DIR) + "/otf2/pipit-ping-pong", dir, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  const std::string anchor = dir + "/traces.otf2";
  const auto before = run(mtfProgram() + " info --json " + anchor);
  ASSERT_EQ(before.status, 0) << before.output;

  // The number of global definitions: 8 bytes at byte 38 of the anchor (see
  // converters/otf2/otf2_declared_counts_test.cpp), in this machine's byte order.
  std::string bytes = readFile(anchor);
  uint64_t held = 0;
  std::memcpy(&held, bytes.data() + 38, 8);
  const uint64_t declared = held + 2;
  std::memcpy(bytes.data() + 38, &declared, 8);
  std::ofstream(anchor, std::ios::binary | std::ios::trunc) << bytes;

  const auto after = run(mtfProgram() + " info --json " + anchor);
  ASSERT_EQ(after.status, 0) << after.output;
  const std::string warning = "mtf: warning: " + anchor + ": the anchor declares " +
                              std::to_string(declared) +
                              " global definitions, the definitions file holds " +
                              std::to_string(held) + "; read as the file says\n";
  const size_t at = after.output.find(warning);
  ASSERT_NE(at, std::string::npos) << after.output;
  EXPECT_EQ(after.output.find(warning, at + 1), std::string::npos) << "warned twice";
  std::string rest = after.output;
  rest.erase(at, warning.size());
  EXPECT_EQ(rest, before.output);  // the same trace as before the patch
  fs::remove_all(dir);
}

}  // namespace
