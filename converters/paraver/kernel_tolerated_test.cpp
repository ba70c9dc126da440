// Records paraver-kernel reads but mtf cannot keep as they are (REFUSALS.md): mtf reads
// the trace, skips them with one warning per kind (count and first line), and --strict
// refuses them; records the kernel reads as they are (a ':' after the last field) are kept.
#include <gtest/gtest.h>

#include <filesystem>

#include "converters/paraver/extrae.hpp"
#include "converters/paraver/header.hpp"
#include "converters/paraver/paraver_reader.hpp"
#include "converters/paraver/paraver_test_util.hpp"
#include "util/error.hpp"

namespace mtf::paraver {
namespace {

using testing::CollectSink;
using testing::TempDir;

constexpr const char* kHeader = "#Paraver (01/02/2023 at 10:00):1000_us:1(2):1:2(1:1,1:1)\n";
constexpr const char* kGood = "1:1:1:1:1:0:10:1\n";

struct Outcome {
  uint64_t states = 0, events = 0, tolerated = 0;
  std::vector<std::string> warnings;
  std::string error;
};

Outcome readRecords(const TempDir& dir, const std::string& records, bool strict = false) {
  dir.write("t.prv", kHeader + records);
  ReadOptions options;
  options.strict = strict;
  ParaverReader reader(dir.file("t.prv"), options);
  CollectSink sink;
  Outcome out;
  try {
    reader.read(sink);
  } catch (const InputError& e) {
    out.error = e.what();
    return out;
  }
  out.states = sink.count(EventKind::State);
  out.events = sink.events.size();
  out.tolerated = reader.counts().tolerated;
  out.warnings = reader.readWarnings();
  return out;
}

// PyCOMPSs writes a duration where the end goes; paraver-kernel reads such a state as it
// is, and so does mtf (no warning, --strict too).
TEST(ParaverTolerated, StateEndingBeforeItBeginsIsKept) {
  TempDir dir;
  const std::string body =
      std::string(kGood) + "1:2:1:2:1:100:50:1\n" + kGood + "1:2:1:2:1:200:60:2\n";
  const Outcome out = readRecords(dir, body);
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.states, 4u);
  EXPECT_EQ(out.tolerated, 0u);
  EXPECT_TRUE(out.warnings.empty());
  EXPECT_EQ(readRecords(dir, body, true).error, "");
}

TEST(ParaverTolerated, StrictRefusesNamingTheLine) {
  TempDir dir;
  const Outcome out = readRecords(dir, std::string(kGood) + "1:1:1:1:1:100:-1:1\n", true);
  EXPECT_NE(out.error.find("t.prv: line 3: state record with a negative end (-1: no end)"),
            std::string::npos)
      << out.error;
  EXPECT_EQ(readRecords(dir, kGood, true).error, "");
}

// One line per rule where paraver-kernel reads what mtf cannot keep as it is.
TEST(ParaverTolerated, EachRuleIsSkippedAndCounted) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"1:1:1:1:1:0:-1:1\n", "state record with a negative end (-1: no end)"},
      {"1:1:1:1:1:0:10:1:7\n", "state record with fields after the state"},
      {"1:1:1:1:1:0:10:4294967296\n", "state record with a state beyond 32 bits"},
      {"2:1:1:1:1:5\n", "event record without type:value"},
      {"2:1:1:1:1:5:40000001:18446744073709551616\n", "event record with a value beyond 64 bits"},
      {"2:1:1:1:1:5:40000001:-9223372036854775809\n", "event record with a value beyond 64 bits"},
      {"3:1:1:1:1:5:5:2:1:2:1:9:9:8:1:0\n", "communication record with fields after the tag"},
      {"3:1:1:1:1:5:5:2:1:2:1:9:9:-8:1\n", "negative size"},
      {"3:1:1:1:1:5:5:2:1:2:1:9:9:8:4294967296\n", "tag beyond 32 bits"},
      {"4:1:1:1:1:5:0:8\n", "global operation record with a missing"},
      {"4:1:1:9:1:5:0:8:8:1:0\n", "global operation record with a bad cpu:appl:task:thread"},
  };
  for (const auto& [line, what] : cases) {
    const Outcome out = readRecords(dir, std::string(kGood) + line);
    EXPECT_EQ(out.error, "") << line;
    EXPECT_EQ(out.tolerated, 1u) << line;
    EXPECT_EQ(out.states, 1u) << line;
    ASSERT_EQ(out.warnings.size(), 1u) << line;
    EXPECT_NE(out.warnings[0].find(what), std::string::npos) << line << " -> " << out.warnings[0];
    EXPECT_NE(out.warnings[0].find("(first at line 3)"), std::string::npos) << out.warnings[0];
    EXPECT_NE(readRecords(dir, std::string(kGood) + line, true).error, "") << line;
  }
}

// paraver-kernel ends a record at the line's end: a ':' after the last field is nothing.
TEST(ParaverTolerated, ColonAfterTheLastFieldKeepsTheRecord) {
  TempDir dir;
  const Outcome out = readRecords(dir, "1:1:1:1:1:0:10:1:\n2:1:1:1:1:5:7:8:\n");
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.states, 1u);
  EXPECT_EQ(out.events, 2u);
  EXPECT_EQ(out.tolerated, 0u);
  EXPECT_TRUE(out.warnings.empty());
}

// What the kernel refuses mtf still refuses (exit 2), e.g. a negative begin time.
TEST(ParaverTolerated, RecordsTheKernelRefusesStayErrors) {
  TempDir dir;
  for (const char* line : {"1:1:1:1:1:-1:10:1\n", "1:1:1:1:1:0:10:-1\n", "2:1:1:1:1:5:7\n",
                           "3:1:1:1:1:5:5:2:1:2:1:-9:9:8:1\n"})
    EXPECT_NE(readRecords(dir, std::string(kGood) + line).error, "") << line;
}

// paraver-kernel takes communicator lines starting c, C, i or I after the header.
TEST(ParaverTolerated, IntercommunicatorLinesInTheHeader) {
  TempDir dir;
  dir.write("t.prv",
            "#Paraver (01/02/2023 at 10:00):1000_us:1(2):1:2(1:1,1:1),3\n"
            "c:1:1:2:1:2\nC:1:2:1:1\ni:1:3:1:2:1:1\n1:1:1:1:1:0:10:1\n");
  ParaverReader reader(dir.file("t.prv"), {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.count(EventKind::State), 1u);
  EXPECT_EQ(reader.counts().communicatorLines, 3u);
  EXPECT_EQ(reader.definitions().info.properties.at(kCommunicatorsProperty),
            "c:1:1:2:1:2\nC:1:2:1:1\ni:1:3:1:2:1:1\n");
}

// paraver-kernel reads an end time with another unit suffix as microseconds.
TEST(ParaverTolerated, OtherUnitSuffixIsMicroseconds) {
  const Header h = parseHeader("#Paraver (01/02/2023 at 10:00):1000_sec:0:1:1(1:1)", "t");
  EXPECT_EQ(h.endTime, 1000u);
  EXPECT_EQ(h.resolution, 1'000'000u);
  EXPECT_EQ(formatHeader(h), "#Paraver (01/02/2023 at 10:00):1000_sec:0:1:1(1:1)");
}

// paraver-kernel skips a first line "new format" before the header.
TEST(ParaverTolerated, NewFormatLineBeforeTheHeader) {
  TempDir dir;
  dir.write("t.prv", std::string("new format\n") + kHeader + kGood + "2:1:1:1:1:5:7:8\n");
  EXPECT_TRUE(looksLikeParaver(dir.file("t.prv")));
  ParaverReader reader(dir.file("t.prv"), {});
  CollectSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events.size(), 2u);
  EXPECT_EQ(reader.definitions().info.properties.at(kHeaderProperty) + "\n", kHeader);
  dir.write("v.prv", std::string("new format\n") + kHeader + kGood + "2:1:1:1:1:5:7\n");
  ParaverReader bad(dir.file("v.prv"), {});
  try {
    bad.read(sink);
    ADD_FAILURE() << "a bad record was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("v.prv: line 4:"), std::string::npos) << e.what();
  }
  dir.write("u.prv", "new format\nnot a header\n");
  EXPECT_FALSE(looksLikeParaver(dir.file("u.prv")));
}

TEST(ParaverTolerated, RealPyCompssTraceReads) {
  const std::string prv = MTF_DATA_DIR "/paraver/compss-cholesky/cholesky_autoparallel.prv";
  ParaverReader reader(prv, {});
  CollectSink sink;
  reader.read(sink);
  const testing::FileCounts file = testing::countFile(prv);
  EXPECT_EQ(reader.counts().tolerated, 0u);
  EXPECT_EQ(reader.counts().states, file.records.at('1'));
  EXPECT_EQ(reader.counts().eventLines, file.records.at('2'));
  EXPECT_EQ(reader.counts().communications, file.records.at('3'));
  EXPECT_EQ(sink.events.size(), reader.counts().modelEvents());
  EXPECT_TRUE(reader.readWarnings().empty()) << reader.readWarnings()[0];
}

// A trace is recognised by its .pcf or .row too: read from the .prv beside them, or
// refused naming the .prv that is missing.
TEST(ParaverCompanions, PcfOrRowAloneNamesTheMissingTrace) {
  TempDir dir;
  const std::string base =
      MTF_DATA_DIR "/paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it";
  std::filesystem::copy_file(base + ".pcf", dir.file("t.pcf"));
  std::filesystem::copy_file(base + ".row", dir.file("t.row"));
  for (const char* name : {"t.pcf", "t.row"}) {
    EXPECT_TRUE(isCompanionFile(dir.file(name))) << name;
    EXPECT_FALSE(looksLikeParaver(dir.file(name))) << name;
    try {
      ParaverReader reader(dir.file(name), {});
      ADD_FAILURE() << name << " alone was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), dir.file(name) + ": its trace t.prv is missing beside it");
      EXPECT_EQ(e.code(), ExitCode::BadInput);
    }
  }
  std::filesystem::copy_file(base + ".prv", dir.file("t.prv"));
  ParaverReader reader(dir.file("t.row"), {});
  EXPECT_EQ(reader.definitions().info.format, "paraver");
  dir.write("other.pcf", "not a pcf\n");
  EXPECT_FALSE(isCompanionFile(dir.file("other.pcf")));
  EXPECT_FALSE(isCompanionFile(MTF_DATA_DIR "/README.md"));
}

}  // namespace
}  // namespace mtf::paraver
