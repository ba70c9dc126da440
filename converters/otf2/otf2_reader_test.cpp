#include "converters/otf2/otf2_reader.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "converters/otf2/otf2_anchor.hpp"
#include "converters/otf2/otf2_format.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "util/error.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::TempDir;
namespace fs = std::filesystem;

const std::string kTraces = MTF_SHARED_DIR "/traces/otf2/";

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

// A writable copy of the ping-pong archive, renamed to `name` (anchor name.otf2).
fs::path copyPingPong(const fs::path& dir, const std::string& name = "traces") {
  const fs::path source = kTraces + "pipit-ping-pong";
  fs::create_directories(dir);
  fs::copy(source / "traces.otf2", dir / (name + ".otf2"));
  fs::copy(source / "traces.def", dir / (name + ".def"));
  fs::copy(source / "traces", dir / name, fs::copy_options::recursive);
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    fs::permissions(entry.path(), fs::perms::owner_write, fs::perm_options::add);
  return dir / (name + ".otf2");
}

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
