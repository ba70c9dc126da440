// mtf convert's warning about an unbalanced enter/leave nesting (src/cli/cmd_convert.cpp).
// A Paraver trace routinely ends with values still set (a call never left: the file has no
// record that ends it), so a Paraver input is not warned about them
// (FormatEntry::callsOpenAtEndAreNormal), nor an archive made from one; the same calls
// read from OTF2 or TAU, where a call never left means a cut trace, still are.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_command.hpp"

using mtf::test::freshTempDir;
using mtf::test::mtfProgram;
using mtf::test::run;

namespace {

const std::string kCholesky =
    std::string(MTF_DATA_DIR) + "/paraver/compss-cholesky/cholesky_autoparallel.prv";
const char* kWarning = "unbalanced enter/leave nesting";

uint64_t callsNeverLeft(const std::string& trace) {
  const auto info = run(mtfProgram() + " info --json " + trace, false);
  EXPECT_EQ(info.status, 0) << info.output;
  return nlohmann::json::parse(info.output)["nesting"]["calls_never_left"].get<uint64_t>();
}

TEST(NestingWarning, ParaverCallsOpenAtTheEndAreNotWarnedAbout) {
  ASSERT_GT(callsNeverLeft(kCholesky), 0u) << "the trace should end with calls open";
  const std::string dir = freshTempDir("nesting-prv");
  for (const char* out : {"/t.mtf", "/t.otf2", "/tau"}) {
    const auto conv = run(mtfProgram() + " convert " + kCholesky + " -o " + dir + out +
                          (std::string(out) == "/tau" ? " --to tau" : ""));
    ASSERT_EQ(conv.status, 0) << conv.output;
    EXPECT_EQ(conv.output.find(kWarning), std::string::npos) << out << ":\n" << conv.output;
  }
  // The archive keeps the format its events were recorded in.
  const auto fromArchive = run(mtfProgram() + " convert " + dir + "/t.mtf -o " + dir + "/back.prv");
  ASSERT_EQ(fromArchive.status, 0) << fromArchive.output;
  EXPECT_EQ(fromArchive.output.find(kWarning), std::string::npos) << fromArchive.output;
}

// The OTF2 and TAU writers keep the calls open (an Enter without its Leave); read back
// from there they are a cut trace's, worth the warning.
TEST(NestingWarning, CallsNeverLeftInOtf2OrTauStillWarn) {
  const std::string dir = freshTempDir("nesting-otf2-tau");
  for (const auto& [out, to] : {std::pair{"/t.otf2", "otf2"}, std::pair{"/tau", "tau"}}) {
    SCOPED_TRACE(to);
    const std::string written = dir + out;
    ASSERT_EQ(
        run(mtfProgram() + " -q convert " + kCholesky + " -o " + written + " --to " + to).status,
        0);
    ASSERT_GT(callsNeverLeft(written), 0u);
    const auto back = run(mtfProgram() + " convert " + written + " -o " + dir + "/" + to + ".mtf");
    ASSERT_EQ(back.status, 0) << back.output;
    EXPECT_NE(back.output.find(kWarning), std::string::npos) << back.output;
    EXPECT_NE(back.output.find("calls never left"), std::string::npos) << back.output;
  }
}

}  // namespace
