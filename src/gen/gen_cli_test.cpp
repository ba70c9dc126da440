// The mtf-gen program end to end: exit codes, safe output, and byte-identical archives
// for the same seed (through the real OTF2 writer).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const std::string kGen = MTF_BINARY_DIR "/mtf-gen";

int run(const std::string& arguments) {
  const int status = std::system((kGen + " " + arguments + " -q > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every file of an archive directory tree, by relative path, with its content.
std::map<std::string, std::string> treeOf(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file())
      files[fs::relative(entry.path(), dir).string()] = bytesOf(entry.path());
  return files;
}

class GenCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mtf_gen_cli_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "a");
    fs::create_directories(dir_ / "b");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Byte-identical except the 8-byte trace identifier that the OTF2 library itself draws at
// random for every archive (stored in the anchor file; OTF2 offers no way to set it).
TEST_F(GenCli, SameSeedGivesByteIdenticalArchives) {
  const std::string args = "wavefront --ranks 4 --iterations 10 --inner 8 --seed 7 -o ";
  ASSERT_EQ(run(args + (dir_ / "a" / "t.otf2").string()), 0);
  ASSERT_EQ(run(args + (dir_ / "b" / "t.otf2").string()), 0);
  const auto a = treeOf(dir_ / "a"), b = treeOf(dir_ / "b");
  EXPECT_GE(a.size(), 6u);  // anchor, global definitions, an .evt and a .def per rank
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, bytes] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    if (name == "t.otf2") {
      ASSERT_EQ(bytes.size(), b.at(name).size());
      size_t differing = 0;
      for (size_t i = 0; i < bytes.size(); ++i) differing += bytes[i] != b.at(name)[i];
      EXPECT_LE(differing, 8u);
    } else {
      EXPECT_TRUE(bytes == b.at(name)) << name << " differs";
    }
  }
  const std::string validate = "otf2-print --silent -Werror " + (dir_ / "a" / "t.otf2").string();
  EXPECT_EQ(std::system((validate + " > /dev/null 2>&1").c_str()), 0);
}

TEST_F(GenCli, ExitCodesAndSafeOutput) {
  const std::string out = (dir_ / "a" / "r.otf2").string();
  EXPECT_EQ(run("ring --ranks 3 -o " + out), 0);
  EXPECT_EQ(run("ring --ranks 3 -o " + out), 3);  // exists, no --force
  EXPECT_EQ(run("ring --ranks 3 --force -o " + out), 0);
  EXPECT_EQ(run("butterfly --ranks 6 -o " + (dir_ / "b" / "x.otf2").string()), 1);
  EXPECT_EQ(run("halo --grid 2x2 --ranks 5 -o " + (dir_ / "b" / "x.otf2").string()), 1);
  EXPECT_EQ(run("ring -o " + (dir_ / "b" / "x.unknown").string()), 1);
  EXPECT_EQ(run("ring -o " + (dir_ / "a" / "r.otf2" / "x.otf2").string()), 3);   // under a file
  EXPECT_EQ(run("ring --ranks 3 -o " + (dir_ / "new" / "x.otf2").string()), 0);  // created
  EXPECT_TRUE(fs::is_regular_file(dir_ / "new" / "x.otf2"));
  EXPECT_TRUE(fs::is_empty(dir_ / "b"));  // refused runs leave nothing behind
}

TEST_F(GenCli, TextOutputIsTheCanonicalDump) {
  const fs::path out = dir_ / "a" / "t.txt";
  ASSERT_EQ(run("master-worker --ranks 3 --iterations 2 -o " + out.string()), 0);
  const std::string text = bytesOf(out);
  EXPECT_NE(text.find("MpiRecv sender=2"), std::string::npos);
  EXPECT_NE(text.find("ProgramEnd"), std::string::npos);
}

}  // namespace
