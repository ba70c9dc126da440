#include "cli/format_roundtrip.hpp"

#include <gtest/gtest.h>

#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"

namespace mtf::test {
namespace {

void convert(const std::string& in, const std::string& out, const std::string& format) {
  const CommandResult r =
      run(mtfProgram() + " -q convert " + in + " -o " + out + " --to " + format + " --force");
  ASSERT_EQ(r.status, 0) << r.output;
}

}  // namespace

void expectSameMatrices(const std::string& input, const std::string& format,
                        const std::string& dir) {
  const SidedMatrices expected = otf2Matrices(input);
  ASSERT_GT(total(expected.sends), 0u);
  ASSERT_EQ(expected.sends, expected.receives);
  if (format == "otf2") {
    convert(input, dir + "/out.otf2", "otf2");
    const SidedMatrices out = otf2Matrices(dir + "/out.otf2");
    EXPECT_EQ(describe(out.sends), describe(expected.sends));
    EXPECT_EQ(describe(out.receives), describe(expected.receives));
    const std::string dump = mtfProgram() + " -q dump ";  // definitions included
    EXPECT_EQ(run(dump + dir + "/out.otf2", false).output, run(dump + input, false).output);
  } else if (format == "paraver") {
    convert(input, dir + "/out.prv", "paraver");
    EXPECT_EQ(describe(paraverMatrix(dir + "/out.prv")), describe(expected.sends));
  } else if (format == "tau") {
    convert(input, dir + "/tau", "tau");
    const SidedMatrices out = tauMatrices(dir + "/tau");
    EXPECT_EQ(describe(out.sends), describe(expected.sends));
    EXPECT_EQ(describe(out.receives), describe(expected.receives));
    // mtf's own TAU reader, back to OTF2, agrees with the records.
    convert(dir + "/tau", dir + "/from_tau.otf2", "otf2");
    EXPECT_EQ(describe(otf2Matrices(dir + "/from_tau.otf2").sends), describe(expected.sends));
  } else {  // mtf, mtf-xml: back to OTF2, and the same events as the input
    const std::string archive = dir + (format == "mtf" ? "/out.mtf" : "/out.mtf.xml");
    convert(input, archive, format);
    convert(archive, dir + "/back.otf2", "otf2");
    EXPECT_EQ(describe(otf2Matrices(dir + "/back.otf2").sends), describe(expected.sends));
    const std::string dump = mtfProgram() + " -q dump ";  // definitions included
    EXPECT_EQ(run(dump + archive, false).output, run(dump + input, false).output);
  }
}

}  // namespace mtf::test
