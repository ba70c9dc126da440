#include "util/safe_output.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "util/error.hpp"
#include "util/scratch_dir.hpp"

namespace fs = std::filesystem;

namespace mtf {
namespace {

fs::path freshDir(const std::string& name) {
  return test::scratchDir("mtf-safe-" + name);
}

TEST(SafeOutput, CommitMovesEveryEntry) {
  const fs::path dir = freshDir("commit");
  {
    SafeOutput out(dir / "t.otf2", false);
    std::ofstream(out.stagingPath()) << "anchor";
    std::ofstream(out.stagingPath().parent_path() / "t.def") << "defs";
    EXPECT_FALSE(fs::exists(dir / "t.otf2"));
    out.commit();
  }
  EXPECT_TRUE(fs::exists(dir / "t.otf2"));
  EXPECT_TRUE(fs::exists(dir / "t.def"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

TEST(SafeOutput, FailureLeavesNothing) {
  const fs::path dir = freshDir("fail");
  {
    SafeOutput out(dir / "t.prv", false);
    std::ofstream(out.stagingPath()) << "half";
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 0);
}

TEST(SafeOutput, ExistingOutputNeedsForce) {
  const fs::path dir = freshDir("force");
  std::ofstream(dir / "t.prv") << "old";
  EXPECT_THROW(SafeOutput(dir / "t.prv", false), IoError);
  SafeOutput out(dir / "t.prv", true);
  std::ofstream(out.stagingPath()) << "new";
  out.commit();
  std::ifstream in(dir / "t.prv");
  std::string text;
  in >> text;
  EXPECT_EQ(text, "new");
}

TEST(SafeOutput, MissingDirectoriesAreCreated) {
  const fs::path dir = freshDir("mkdir");
  {
    SafeOutput out(dir / "a" / "b" / "t.otf2", false);
    std::ofstream(out.stagingPath()) << "anchor";
    out.commit();
  }
  EXPECT_TRUE(fs::is_regular_file(dir / "a" / "b" / "t.otf2"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir / "a" / "b"), fs::directory_iterator()), 1);
}

TEST(SafeOutput, FailureRemovesTheDirectoriesItCreated) {
  const fs::path dir = freshDir("mkdir-fail");
  fs::create_directories(dir / "kept");
  {
    SafeOutput out(dir / "kept" / "new" / "deeper" / "t.prv", false);
    std::ofstream(out.stagingPath()) << "half";
  }
  EXPECT_TRUE(fs::is_directory(dir / "kept"));
  EXPECT_FALSE(fs::exists(dir / "kept" / "new"));
}

TEST(SafeOutput, ParentThatIsAFileIsAnIoError) {
  const fs::path dir = freshDir("parent-file");
  std::ofstream(dir / "plain") << "x";
  try {
    SafeOutput out(dir / "plain" / "t.otf2", false);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_EQ(e.code(), ExitCode::IoFailure);
    EXPECT_NE(std::string(e.what()).find("plain"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_regular_file(dir / "plain"));
}

}  // namespace
}  // namespace mtf
