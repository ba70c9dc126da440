// The mtf program on MTF XML: convert to and from .mtf.xml, and validate (exit status 2
// with file, line and column for a file that breaks the schema).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct CommandRun {
  int status = -1;
  std::string output;
};

CommandRun mtf(const std::string& arguments) {
  CommandRun run;
  FILE* pipe = ::popen((std::string(MTF_BINARY_DIR) + "/mtf " + arguments + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return run;
}

class MtfXmlCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mtf_xml_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return "'" + (dir_ / name).string() + "'"; }
  fs::path dir_;
};

TEST_F(MtfXmlCli, ConvertValidateAndRefuse) {
  const std::string input = std::string(MTF_DATA_DIR) + "/otf2/pipit-ping-pong/traces.otf2";
  CommandRun r = mtf("convert '" + input + "' -o " + at("t.mtf.xml"));
  ASSERT_EQ(r.status, 0) << r.output;
  r = mtf("validate " + at("t.mtf.xml"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("valid MTF XML"), std::string::npos) << r.output;
  r = mtf("convert " + at("t.mtf.xml") + " -o " + at("back.otf2"));
  EXPECT_EQ(r.status, 0) << r.output;

  std::ifstream in(dir_ / "t.mtf.xml");
  std::stringstream text;
  text << in.rdbuf();
  std::ofstream(dir_ / "bad.mtf.xml")
      << std::regex_replace(text.str(), std::regex("kind=\"Enter\""), "kind=\"Entre\"",
                            std::regex_constants::format_first_only);
  r = mtf("validate " + at("bad.mtf.xml"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(
      std::regex_search(r.output, std::regex("bad\\.mtf\\.xml: line [0-9]+, column [0-9]+")))
      << r.output;

  r = mtf("convert " + at("s.mtf.xml") + " -o " + at("x.otf2"));  // does not exist
  EXPECT_EQ(r.status, 2) << r.output;
  ASSERT_EQ(mtf("convert '" + input + "' -o " + at("s.mtf.xml") + " --structure-only").status, 0);
  r = mtf("convert " + at("s.mtf.xml") + " -o " + at("x.otf2"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("structure-only"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "x.otf2"));  // no half-written output
}

}  // namespace
