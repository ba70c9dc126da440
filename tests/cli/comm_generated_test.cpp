// Issue 17, generated: `mtf-gen --split-comms` puts every point-to-point message on a
// sub-communicator (grid rows and columns, or one per pair of ranks that talk). The trace
// must hold the same messages between the same world ranks as the kernel without it (by
// otf2-print's reading), with the same event count, through every writer, and the
// analyses must see the same program: identical `mtf loops`, `mtf patterns` and
// `mtf match` output.
#include <gtest/gtest.h>

#include <vector>

#include "cli/format_roundtrip.hpp"
#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

struct Kernel {
  const char* name;
  const char* options;
  const char* pattern;  // a built-in pattern of `mtf match` it follows
};

const Kernel kKernels[] = {
    {"wavefront", "--grid 3x4 --iterations 2 --inner 3", "wavefront:3x4"},
    {"halo", "--grid 4x3 --iterations 3", "mesh:4x3"},
    {"ring", "--ranks 70 --iterations 3", "ring"},  // 70 pair communicators: TAU keeps 6 bits
    {"butterfly", "--ranks 8 --iterations 3", "butterfly"},
    {"master-worker", "--ranks 6 --iterations 3", "master-worker"},
};

const char* kFormats[] = {"otf2", "paraver", "tau", "mtf", "mtf-xml"};

std::string generate(const Kernel& k, const std::string& dir, bool split) {
  const std::string out = dir + "/" + k.name + (split ? "-split" : "") + ".otf2";
  const CommandResult r = run(genProgram() + " " + k.name + " " + k.options +
                              (split ? " --split-comms" : "") + " --force -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  return out;
}

std::string eventsWritten(const std::string& stderrLine) {
  const size_t at = stderrLine.find(" events written");
  const size_t from = stderrLine.rfind(' ', at - 1);
  return stderrLine.substr(from + 1, at - from - 1);
}

class SplitComms : public ::testing::TestWithParam<Kernel> {};

TEST_P(SplitComms, SameMessagesAndEventCountAsOnTheWorld) {
  const Kernel k = GetParam();
  const std::string dir = freshTempDir(std::string("split-") + k.name);
  const std::string world = generate(k, dir, false), split = generate(k, dir, true);
  const SidedMatrices expected = otf2Matrices(world), got = otf2Matrices(split);
  EXPECT_GT(total(expected.sends), 0u);
  EXPECT_EQ(describe(got.sends), describe(expected.sends));
  EXPECT_EQ(describe(got.receives), describe(expected.receives));
  const std::string gen = genProgram() + " " + k.name + " " + k.options + " --to text -o " + dir;
  const CommandResult plain = run(gen + "/a.txt --force"),
                      splitRun = run(gen + "/b.txt --force --split-comms");
  EXPECT_EQ(eventsWritten(splitRun.output), eventsWritten(plain.output));
  // The sub-communicators are really used: otf2-print lists peers by local rank.
  const CommandResult print =
      run("otf2-print " + split + " | grep -c 'Communicator: \"\\(row\\|column\\|pair\\)'", false);
  EXPECT_NE(print.output, "0\n");
}

TEST_P(SplitComms, AnalysesSeeTheSameProgram) {
  const Kernel k = GetParam();
  const std::string dir = freshTempDir(std::string("split-analyses-") + k.name);
  const std::string world = generate(k, dir, false), split = generate(k, dir, true);
  const std::vector<std::string> commands = {"loops", "patterns",
                                             std::string("match --pattern ") + k.pattern};
  for (const std::string& command : commands) {
    const CommandResult a = run(mtfProgram() + " -q " + command + " " + world, false);
    const CommandResult b = run(mtfProgram() + " -q " + command + " " + split, false);
    EXPECT_EQ(a.status, 0) << command;
    EXPECT_EQ(a.output, b.output) << command;
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, SplitComms, ::testing::ValuesIn(kKernels), [](const auto& info) {
  std::string name = info.param.name;
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
});

// 70 ranks in a ring: 71 communicators, TAU's 6-bit id holds 64. The partners survive (the
// format tests above), the communicators of the last 7 pairs do not, and that is said.
TEST(SplitCommsTau, CommunicatorsBeyondTauIdsAreReportedAsALoss) {
  const std::string dir = freshTempDir("split-tau-comms");
  const std::string ring = generate(kKernels[2], dir, true);
  const CommandResult r = run(mtfProgram() + " convert " + ring + " -o " + dir + "/tau --to tau");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("42 messages on communicators beyond TAU's 64 ids"), std::string::npos)
      << r.output;
}

// --self-messages: each rank also sends itself a message on MPI_COMM_SELF (a communicator
// over the COMM_SELF group, as in Score-P traces). Every writer and `mtf loops` must name
// the rank itself as the partner (the unfixed TAU writer and NLR named rank 0).
class SelfMessages : public ::testing::TestWithParam<std::tuple<Kernel, const char*>> {};

std::string generateWithSelfMessages(const Kernel& k, const std::string& dir) {
  const std::string out = dir + "/" + k.name + "-self.otf2";
  const CommandResult r = run(genProgram() + " " + k.name + " " + k.options +
                              " --split-comms --self-messages --force -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  return out;
}

TEST_P(SelfMessages, WorldRankMatrixSurvivesTheFormat) {
  const auto [k, format] = GetParam();
  const std::string dir = freshTempDir(std::string("self-fmt-") + k.name + "-" + format);
  const std::string trace = generateWithSelfMessages(k, dir);
  const MessageMatrix sends = otf2Matrices(trace).sends;
  for (int64_t rank = 0; rank < 6; ++rank) EXPECT_EQ(sends.at({rank, rank}), 1u) << rank;
  expectSameMatrices(trace, format, dir);
}

// "wavefront_tau": a parameter name of a (kernel, format) case.
std::string kernelFormatName(
    const ::testing::TestParamInfo<std::tuple<Kernel, const char*>>& info) {
  std::string name = std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(KernelsAndFormats, SelfMessages,
                         ::testing::Combine(::testing::ValuesIn(kKernels),
                                            ::testing::ValuesIn(kFormats)),
                         kernelFormatName);

TEST(SelfMessagesLoops, LoopsNameTheRankItself) {
  for (const Kernel& k : kKernels) {
    const std::string dir = freshTempDir(std::string("self-loops-") + k.name);
    const std::string trace = generateWithSelfMessages(k, dir);
    const SidedMatrices truth = otf2Matrices(trace);
    RankPairs sends, receives;
    loopPairs(run(mtfProgram() + " -q loops " + trace, false).output, sends, receives);
    EXPECT_EQ(sends, pairsOf(truth.sends)) << k.name;
    EXPECT_EQ(receives, pairsOf(truth.receives)) << k.name;
  }
}

class SplitCommsFormats : public ::testing::TestWithParam<std::tuple<Kernel, const char*>> {};

TEST_P(SplitCommsFormats, WorldRankMatrixSurvivesTheFormat) {
  const auto [k, format] = GetParam();
  const std::string dir = freshTempDir(std::string("split-fmt-") + k.name + "-" + format);
  expectSameMatrices(generate(k, dir, true), format, dir);
}

INSTANTIATE_TEST_SUITE_P(KernelsAndFormats, SplitCommsFormats,
                         ::testing::Combine(::testing::ValuesIn(kKernels),
                                            ::testing::ValuesIn(kFormats)),
                         kernelFormatName);

}  // namespace
