// Golden tests: `mtf dump` of fixed inputs must equal the checked-in expectation in
// tests/golden/. After an intended change of the dump format or of the generator, rerun
// with MTF_UPDATE_GOLDEN=1 to rewrite the expectations, and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "cli/run_command.hpp"

using mtf::test::mtfProgram;
using mtf::test::readFile;
using mtf::test::run;

namespace {

struct GoldenCase {
  const char* name;     // tests/golden/<name>.dump
  const char* command;  // produces the input into $DIR (empty: input is `input`)
  const char* input;    // path relative to $DIR or absolute
};

std::string expand(std::string text, const std::string& dir) {
  const std::string data = std::string(MTF_DATA_DIR);
  for (auto [key, value] : {std::pair<std::string, std::string>{"$DIR", dir},
                            {"$DATA", data},
                            {"$SOURCE", std::string(MTF_SOURCE_DIR)},
                            {"$GEN", mtf::test::genProgram()}}) {
    for (size_t at; (at = text.find(key)) != std::string::npos;)
      text.replace(at, key.size(), value);
  }
  return text;
}

void checkGolden(const GoldenCase& c) {
  const std::string dir = mtf::test::freshTempDir(std::string("golden-") + c.name);
  if (*c.command) {
    const auto made = run(expand(c.command, dir));
    ASSERT_EQ(made.status, 0) << made.output;
  }
  const auto dump = run(mtfProgram() + " dump " + expand(c.input, dir), false);
  ASSERT_EQ(dump.status, 0);
  const std::string expectedPath =
      std::string(MTF_SOURCE_DIR) + "/tests/golden/" + c.name + ".dump";
  if (std::getenv("MTF_UPDATE_GOLDEN"))
    std::ofstream(expectedPath, std::ios::binary) << dump.output;
  const std::string expected = readFile(expectedPath);
  ASSERT_FALSE(expected.empty()) << "missing " << expectedPath;
  EXPECT_TRUE(dump.output == expected)
      << "mtf dump differs from " << expectedPath << "; run `diff` on the two to see how";
}

TEST(Golden, PingPongOtf2) {
  checkGolden({"pipit-ping-pong", "", "$DATA/otf2/pipit-ping-pong/traces.otf2"});
}

TEST(Golden, GeneratedWavefront) {
  checkGolden({"gen-wavefront-4",
               "$GEN wavefront --ranks 4 --iterations 2 --inner 3 --seed 7 -q -o $DIR/w.otf2",
               "$DIR/w.otf2"});
}

// An archive of version 1 (written by mtf before column coding 2, from the generated
// wavefront above) still reads to the same events.
TEST(Golden, VersionOneArchiveStillReads) {
  checkGolden({"gen-wavefront-4", "", "$SOURCE/tests/golden/archives/gen-wavefront-4.v1.mtf"});
}

// The worked example of docs/mtf-format.md as version 2 wrote it (before the Structure
// chunk and column coding 3 of version 3) and as the writer writes it today, and an
// archive of version 2 of the generated wavefront: the same events as today.
TEST(Golden, VersionTwoArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v2.mtf"});
  checkGolden({"spec-example", "", "$SOURCE/tests/spec/example.mtf"});
  checkGolden({"gen-wavefront-4", "", "$SOURCE/tests/golden/archives/gen-wavefront-4.v2.mtf"});
}

// The worked example as version 3 wrote it (before version 4's definition texts and node
// columns): the same events as today.
TEST(Golden, VersionThreeArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v3.mtf"});
}

// The worked example as version 4 wrote it (before version 5's numbered texts and larger
// table of well-known strings): the same events as today.
TEST(Golden, VersionFourArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v4.mtf"});
}

// The worked example as version 5 wrote it (before version 6's built-in vocabulary): the
// same events as today.
TEST(Golden, VersionFiveArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v5.mtf"});
}

// The worked example as version 6 wrote it (before version 7's short chunk headers): the
// same events as today.
TEST(Golden, VersionSixArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v6.mtf"});
}

// The worked example as version 7 wrote it (before version 8's range coded column chunks):
// the same events as today.
TEST(Golden, VersionSevenArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v7.mtf"});
}

// The worked example as version 8 wrote it (its column chunks range coded with coding 6,
// before coding 7): the same events as today.
TEST(Golden, VersionEightArchiveStillReads) {
  checkGolden({"spec-example", "", "$SOURCE/tests/golden/archives/example.v8.mtf"});
}

// An archive of version 3 (column coding 3, written by mtf before coding 4) of the
// generated wavefront: the same events as today.
TEST(Golden, VersionThreeWavefrontStillReads) {
  checkGolden({"gen-wavefront-4", "", "$SOURCE/tests/golden/archives/gen-wavefront-4.v3.mtf"});
}

TEST(Golden, GeneratedHalo) {
  checkGolden({"gen-halo-4", "$GEN halo --ranks 4 --iterations 2 --seed 3 -q -o $DIR/h.otf2",
               "$DIR/h.otf2"});
}

}  // namespace
