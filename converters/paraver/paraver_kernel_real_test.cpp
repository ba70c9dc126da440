// Every Paraver file mtf writes from the real traces of tests/data and from generated
// traces holds to paraver-kernel's rules (kernel_check.hpp): no record it would skip, a
// resource section covering every CPU the records name, and one communication record
// per message of the source, all counted by its communication matrix.
#include <gtest/gtest.h>

#include <filesystem>

#include "converters/paraver/kernel_check.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "converters/paraver/paraver_writer.hpp"
#include "gen/generator.hpp"
#include "registry/registry.hpp"
#include "tests/data/real_traces.hpp"

namespace mtf::paraver {
namespace {

using testing::TempDir;

// Counts the messages of a trace (its sends).
struct MessageCounter : TraceSink {
  uint64_t messages = 0;
  void begin(const Definitions&) override {}
  void event(const Event& e) override { messages += isSend(e.kind); }
  void end() override {}
};

void expectAcceptedByParaverKernel(const std::string& prv, uint64_t messages,
                                   const std::string& what) {
  const KernelCheck check = checkLikeParaverKernel(prv);
  EXPECT_EQ(check.refusedTotal(), 0u) << what << ": " << check.firstRefused;
  EXPECT_TRUE(check.loadable()) << what;
  EXPECT_LE(check.highestCpu, check.declaredCpus) << what;
  EXPECT_EQ(check.accepted[2], messages) << what;
  EXPECT_EQ(check.sendsCounted, messages) << what;
  EXPECT_EQ(check.recordsAfterEnd, 0u) << what;
  // mtf's reader agrees: nothing to warn about.
  ParaverReader reader(prv, {});
  MessageCounter back;
  reader.read(back);
  EXPECT_TRUE(reader.readWarnings().empty()) << what << ": " << reader.readWarnings().front();
  EXPECT_EQ(back.messages, messages) << what;
}

// Some events have no Paraver record (ProgramBegin, request completions): reported and
// fine. Every message must become a record, every CPU must be kept.
void expectNoMessageOrCpuLoss(const LossReport& losses) {
  for (const auto& [what, n] : losses)
    for (const char* word : {"CPU", "partner", "peer"})
      EXPECT_EQ(what.find(word), std::string::npos) << n << " " << what;
}

class RealTraceToParaver : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceToParaver, IsAcceptedByParaverKernel) {
  const std::string input = std::string(MTF_DATA_DIR) + "/" + GetParam();
  ASSERT_TRUE(std::filesystem::exists(input)) << input;
  MessageCounter source;
  openTrace(input, {})->read(source);
  TempDir dir;
  const std::string output = dir.file("out.prv");
  {
    ParaverWriter writer(output, {});
    openTrace(input, {})->read(writer);
    expectNoMessageOrCpuLoss(writer.losses());
  }
  expectAcceptedByParaverKernel(output, source.messages, GetParam());
}

// Every real trace, and the gzipped qsort (the reader decompresses it on the way).
std::vector<std::string> allTraces() {
  std::vector<std::string> traces = mtf::test::realTraces();
  traces.push_back(mtf::test::kGzippedQsort);
  return traces;
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceToParaver, ::testing::ValuesIn(allTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return mtf::test::traceTestName(info.index, info.param);
                         });

// Several threads on one node (TAU OpenCL): one node declaring a CPU per thread.
TEST(RealTraceToParaverHeader, TauThreadsOnOneNodeEachHaveACpu) {
  TempDir dir;
  const std::string output = dir.file("l9.prv");
  {
    ParaverWriter writer(output, {});
    openTrace(MTF_DATA_DIR "/tau/opencl-l9", {})->read(writer);
  }
  const std::string header = testing::fileLines(output).front();
  const KernelCheck check = checkLikeParaverKernel(output);
  EXPECT_GT(check.declaredCpus, 1u) << header;
  EXPECT_NE(header.find(":1(" + std::to_string(check.declaredCpus) + "):"), std::string::npos)
      << header;
}

struct GenCase {
  gen::Kernel kernel;
  uint32_t ranks;
};

class GeneratedToParaver : public ::testing::TestWithParam<GenCase> {};

TEST_P(GeneratedToParaver, IsAcceptedByParaverKernel) {
  gen::GenOptions options;
  options.kernel = GetParam().kernel;
  options.ranks = GetParam().ranks;
  options.iterations = 3;
  options.inner = 2;
  MessageCounter source;
  gen::generate(options, source);
  ASSERT_GT(source.messages, 0u);
  TempDir dir;
  const std::string output = dir.file("gen.prv");
  ParaverWriter writer(output, {});
  gen::generate(options, writer);
  expectNoMessageOrCpuLoss(writer.losses());
  const std::string header = testing::fileLines(output).front();
  EXPECT_NE(header.find(":1(" + std::to_string(GetParam().ranks) + "):"), std::string::npos)
      << header;
  expectAcceptedByParaverKernel(output, source.messages,
                                std::string(gen::kernelName(GetParam().kernel)));
}

INSTANTIATE_TEST_SUITE_P(Kernels, GeneratedToParaver,
                         ::testing::Values(GenCase{gen::Kernel::Ring, 8},
                                           GenCase{gen::Kernel::Wavefront, 6},
                                           GenCase{gen::Kernel::Halo, 9},
                                           GenCase{gen::Kernel::Butterfly, 8},
                                           GenCase{gen::Kernel::MasterWorker, 5}),
                         [](const ::testing::TestParamInfo<GenCase>& info) {
                           std::string name(gen::kernelName(info.param.kernel));
                           std::erase(name, '-');
                           return name + std::to_string(info.param.ranks);
                         });

}  // namespace
}  // namespace mtf::paraver
