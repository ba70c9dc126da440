#include "converters/otf2/otf2_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "converters/otf2/otf2_anchor.hpp"
#include "converters/otf2/otf2_format.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::copyPingPong;
using testing::kTraces;
using testing::TempDir;
namespace fs = std::filesystem;

std::map<std::string, uint64_t> countByOtf2Name(const std::vector<Event>& events) {
  std::map<std::string, uint64_t> counts;
  for (const Event& e : events) ++counts[testing::otf2PrintName(nameOf(e.kind))];
  return counts;
}

class RealTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTrace, EventCountsByKindMatchOtf2Print) {
  const std::filesystem::path dir = kTraces + GetParam();
  Otf2Reader reader(dir, {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.begins, 1);
  EXPECT_EQ(sink.ends, 1);
  const auto expected = testing::otf2PrintCounts(dir / "traces.otf2");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(countByOtf2Name(sink.events), expected);
  EXPECT_TRUE(reader.unmodelled().empty());
}

INSTANTIATE_TEST_SUITE_P(Otf2, RealTrace,
                         ::testing::Values("pipit-ping-pong", "pipit-ping-pong-papi",
                                           "sst-macro-mpi", "fastotf2-mi300"));

// Reading `input` fails with an InputError whose message names `input`.
void expectInputErrorNaming(const fs::path& input) {
  try {
    Otf2Reader reader(input, {});
    CollectingSink sink;
    reader.read(sink);
    FAIL() << "no error for " << input;
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(input.string()), std::string::npos) << error.what();
  }
}

TEST(Otf2ReaderBadInput, MissingPath) {
  expectInputErrorNaming("/nonexistent/trace.otf2");
}

TEST(Otf2ReaderBadInput, DirectoryWithoutAnchor) {
  TempDir tmp;
  std::ofstream(tmp.path() / "notes.txt") << "no trace here";
  expectInputErrorNaming(tmp.path());
}

TEST(Otf2ReaderBadInput, TruncatedEventFile) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces" / "0.evt", 300);
  expectInputErrorNaming(anchor);
}

TEST(Otf2ReaderBadInput, MissingEventFile) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::remove(tmp.path() / "a" / "traces" / "1.evt");
  expectInputErrorNaming(anchor);
  Otf2Reader reader(anchor, {});
  CollectingSink sink;
  try {
    reader.read(sink);
    FAIL() << "read without its event file";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              anchor.string() + ": location 1: its event file traces/1.evt is missing");
  }
}

TEST(Otf2ReaderBadInput, MissingGlobalDefinitionsAreNamed) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::remove(tmp.path() / "a" / "traces.def");
  try {
    Otf2Reader reader(anchor, {});
    reader.definitions();
    FAIL() << "read without its definitions";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              anchor.string() + ": its global definitions traces.def are missing");
  }
}

// A Score-P 2.x archive (OTF2 2.0) with none of its event files: still an OTF2 trace,
// refused naming the first missing file.
TEST(Otf2ReaderBadInput, ArchiveWithoutEventFilesNamesTheFirst) {
  TempDir tmp;
  const fs::path copy = tmp.path() / "sst";
  fs::copy(kTraces + "sst-macro-mpi", copy, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(copy))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  for (const auto& entry : fs::directory_iterator(copy / "traces"))
    if (entry.path().extension() == ".evt") fs::remove(entry.path());
  fs::path anchor;
  ASSERT_TRUE(tryFindAnchor(copy, anchor));
  Otf2Reader reader(copy, {});
  CollectingSink sink;
  try {
    reader.read(sink);
    FAIL() << "read without event files";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(": location 0: its event file traces/0.evt is missing"),
              std::string::npos)
        << e.what();
  }
}

TEST(Otf2ReaderBadInput, CorruptedAnchor) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  {
    std::fstream f(anchor, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    const std::string garbage(30, '\xff');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  expectInputErrorNaming(anchor);
}

TEST(Otf2ReaderBadInput, TruncatedGlobalDefinitions) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces.def", 100);
  expectInputErrorNaming(anchor);
}

TEST(Otf2ReaderBadInput, LenientReadCountsTheUnreadableLocation) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a");
  fs::resize_file(tmp.path() / "a" / "traces" / "0.evt", 300);
  Otf2Reader reader(anchor, {.lenient = true});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.ends, 1);
  EXPECT_EQ(reader.unmodelled().at("OTF2 locations whose events could not all be read"), 1u);
  EXPECT_GT(sink.events.size(), 0u);
}

TEST(Otf2Sniff, AnchorByContentWhateverItsName) {
  TempDir tmp;
  const fs::path anchor = copyPingPong(tmp.path() / "a", "run-17");
  const FormatEntry format = otf2Format();
  EXPECT_TRUE(format.sniff(anchor));
  EXPECT_TRUE(format.sniff(tmp.path() / "a"));  // the directory holding it
  EXPECT_FALSE(format.sniff(tmp.path() / "a" / "run-17.def"));
  EXPECT_FALSE(format.sniff(tmp.path()));  // anchors are searched one level deep only
  Otf2Reader reader(tmp.path() / "a", {});
  CollectingSink sink;
  reader.read(sink);
  EXPECT_EQ(sink.events.size(), 120u);  // the README's count for this trace
}

TEST(Otf2Sniff, DirectoryWithSeveralAnchorsIsAnErrorNamingThem) {
  TempDir tmp;
  copyPingPong(tmp.path(), "first");
  copyPingPong(tmp.path(), "second");
  try {
    otf2Format().sniff(tmp.path());
    FAIL() << "no error";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("first.otf2"), std::string::npos) << message;
    EXPECT_NE(message.find("second.otf2"), std::string::npos) << message;
  }
}

TEST(Otf2Reader, TraceInfoComesFromTheAnchor) {
  Otf2Reader reader(kTraces + "pipit-ping-pong", {});
  const Definitions& defs = reader.definitions();
  EXPECT_EQ(defs.info.format, "otf2");
  EXPECT_EQ(defs.info.creator, "Score-P 7.1");
  EXPECT_EQ(defs.info.version.substr(0, 3), "2.3");
  EXPECT_EQ(defs.locations().size(), 2u);
  EXPECT_FALSE(defs.regionName(193).empty());  // MPI_Send, as otf2-print names it
  EXPECT_EQ(defs.regionName(193), "MPI_Send");
}

const Event* firstOf(const std::vector<Event>& events, EventKind kind, LocationId location) {
  for (const Event& e : events)
    if (e.kind == kind && e.location == location) return &e;
  return nullptr;
}

// Field values in the model's order, checked against what otf2-print shows.
TEST(Otf2Reader, FieldsLandInTheModelsOrder) {
  Otf2Reader reader(kTraces + "pipit-ping-pong-papi", {});
  CollectingSink sink;
  reader.read(sink);
  // METRIC 0 7396895680158984 Metric: 0, 3 Values: (<0>; UINT64; 98850), (<1>; UINT64; 2191),
  // (<2>; UINT64; 421)
  const Event* metric = firstOf(sink.events, EventKind::Metric, 0);
  ASSERT_NE(metric, nullptr);
  EXPECT_EQ(metric->time, 7396895680158984u);
  EXPECT_EQ(metric->fields, (std::vector<uint64_t>{0, 3, 4, 98850, 4, 2191, 4, 421}));
  // Its metric class: self occurrence recorderKind count *member.
  const DefRecord* metricClass = sink.defs.find(DefKind::MetricClass, 0);
  ASSERT_NE(metricClass, nullptr);
  EXPECT_EQ(metricClass->fields.size(), 7u);
  EXPECT_EQ(metricClass->field("count"), 3u);
  EXPECT_EQ(sink.defs.string(sink.defs.find(DefKind::MetricMember, 1)->field("name")),
            "PAPI_L2_TCM");

  Otf2Reader pingPong(kTraces + "pipit-ping-pong", {});
  CollectingSink pp;
  pingPong.read(pp);
  // MPI_SEND 0 7397467382760060 Receiver: 1, Communicator: <1>, Tag: 10, Length: 16384
  const Event* send = firstOf(pp.events, EventKind::MpiSend, 0);
  ASSERT_NE(send, nullptr);
  EXPECT_EQ(send->time, 7397467382760060u);
  EXPECT_EQ(send->field("receiver"), 1u);
  EXPECT_EQ(send->field("comm"), 1u);
  EXPECT_EQ(send->field("tag"), 10u);
  EXPECT_EQ(send->field("length"), 16384u);
  // PROGRAM_BEGIN 1 ... Name: <8>, 0 Arguments; ADDITIONAL ATTRIBUTES: (<2>; UINT64; 26602)
  const Event* begin = firstOf(pp.events, EventKind::ProgramBegin, 1);
  ASSERT_NE(begin, nullptr);
  EXPECT_EQ(begin->fields, (std::vector<uint64_t>{8, 0}));
  EXPECT_EQ(begin->attributes, (std::vector<EventAttribute>{{2, 4, 26602}}));
}

TEST(Otf2Reader, EachLocationsEventsComeTogetherInTimeOrder) {
  Otf2Reader reader(kTraces + "fastotf2-mi300", {});
  CollectingSink sink;
  reader.read(sink);
  std::set<LocationId> finished;
  for (size_t i = 1; i < sink.events.size(); ++i) {
    const Event& a = sink.events[i - 1];
    const Event& b = sink.events[i];
    if (a.location == b.location) {
      EXPECT_LE(a.time, b.time);
    } else {
      EXPECT_TRUE(finished.insert(a.location).second) << "location " << a.location << " resumed";
    }
  }
  EXPECT_GT(finished.size(), 20u);
  // Location ids beyond 32 bits (GPU streams, metric locations) come through whole.
  EXPECT_TRUE(std::any_of(sink.events.begin(), sink.events.end(),
                          [](const Event& e) { return e.location >= (1ull << 32); }));
}

TEST(Otf2PropertyKeys, EncodingIsValidForOtf2AndReversible) {
  for (const std::string key : {"paraver.pcf", "Mixed_Case key!", "", "a/b\\c\n"}) {
    const std::string name = encodePropertyKey(key);
    for (const char c : name)
      EXPECT_TRUE((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') << name;
    std::string back;
    ASSERT_TRUE(decodePropertyKey(name, back)) << name;
    EXPECT_EQ(back, key);
  }
  std::string ignored;
  EXPECT_FALSE(decodePropertyKey("BAD_Z", ignored));
}

}  // namespace
}  // namespace mtf::otf2
