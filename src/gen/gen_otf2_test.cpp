// Generated traces through the real OTF2 writer: the archive passes otf2-print's own
// validation, and reading it back gives the same events, still satisfying every check.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "converters/otf2/otf2_format.hpp"
#include "gen/generator.hpp"
#include "gen/trace_check.hpp"
#include "model/text_dump.hpp"

namespace fs = std::filesystem;

namespace mtf::gen {
namespace {

class GenOtf2 : public ::testing::TestWithParam<Kernel> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mtf_gen_otf2_" + std::to_string(::getpid()) + "_" +
                                        std::string(kernelName(GetParam())));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

int runQuiet(const std::string& command) {
  const int status = std::system((command + " > /dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_P(GenOtf2, ArchiveValidatesAndReadsBackIdentically) {
  GenOptions o;
  o.kernel = GetParam();
  o.ranks = 4;
  o.iterations = 3;
  o.inner = 4;
  o.noise = 0.05;
  const fs::path anchor = dir_ / "trace.otf2";
  const FormatEntry format = otf2Format();
  std::ostringstream generated;
  {
    auto writer = format.openWriter(anchor, WriteOptions{});
    TextDumpSink text(generated, false);
    TeeSink both{writer.get(), &text};
    generate(o, both);
  }
  EXPECT_EQ(runQuiet("otf2-print --silent -Werror " + anchor.string()), 0);
  auto reader = format.openReader(anchor, ReadOptions{});
  std::ostringstream readBack;
  TextDumpSink text(readBack, false);
  TraceCheckSink check;
  TeeSink both{&text, &check};
  reader->read(both);
  EXPECT_EQ(readBack.str(), generated.str());
  EXPECT_EQ(check.report().unmatchedSends + check.report().unmatchedReceives, 0u)
      << check.report().summary();
  EXPECT_EQ(reader->definitions().info.properties.at("gen.kernel"), kernelName(o.kernel));
}

INSTANTIATE_TEST_SUITE_P(AllKernels, GenOtf2,
                         ::testing::Values(Kernel::Wavefront, Kernel::Ring, Kernel::Butterfly,
                                           Kernel::Halo, Kernel::MasterWorker),
                         [](const auto& info) {
                           std::string name(kernelName(info.param));
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace mtf::gen
