// Issue 17: an anchor whose number of global definitions or of locations disagrees with the
// definitions file (otf2-print refuses such an archive) is read as the file says, with a
// warning naming the anchor and both numbers.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "converters/otf2/otf2_reader.hpp"
#include "converters/otf2/otf2_test_util.hpp"

namespace mtf::otf2 {
namespace {

using testing::CollectingSink;
using testing::copyPingPong;
using testing::TempDir;
namespace fs = std::filesystem;

// Where OTF2's anchor keeps its two counts (8 bytes each, in the writer's byte order):
// chunk header 2, "OTF2\0" 5, anchor format 1, trace format 1, version 3, chunk sizes 16,
// substrate 1, compression 1, then the number of locations and of global definitions.
constexpr size_t kLocationsOffset = 30;
constexpr size_t kDefinitionsOffset = 38;

struct DeclaredCounts {
  uint64_t locations = 0;
  uint64_t definitions = 0;
};

DeclaredCounts declaredByOtf2(const fs::path& anchor) {
  const ReaderHandle reader(OTF2_Reader_Open(anchor.c_str()));
  DeclaredCounts counts;
  if (!reader) return counts;
  OTF2_Reader_GetNumberOfLocations(reader.get(), &counts.locations);
  OTF2_Reader_GetNumberOfGlobalDefinitions(reader.get(), &counts.definitions);
  return counts;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Overwrites the count at `offset`, first checking that the bytes there are the count OTF2
// reads (so the test cannot patch the wrong bytes unnoticed).
void patchCount(const fs::path& anchor, size_t offset, uint64_t expectedNow, uint64_t value) {
  std::string bytes = readAll(anchor);
  ASSERT_GE(bytes.size(), offset + 8);
  uint64_t now = 0;
  std::memcpy(&now, bytes.data() + offset, 8);
  ASSERT_EQ(now, expectedNow) << "not the count at byte " << offset;
  std::memcpy(bytes.data() + offset, &value, 8);
  std::ofstream(anchor, std::ios::binary | std::ios::trunc) << bytes;
}

class DeclaredCountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    anchor_ = copyPingPong(tmp_.path() / "trace");
    original_ = declaredByOtf2(anchor_);
    ASSERT_EQ(original_.locations, 2u);
    ASSERT_GT(original_.definitions, 100u);
    Otf2Reader reader(anchor_, {});
    reader.read(expected_);
    EXPECT_TRUE(reader.warnings().empty());
  }

  // Reads the patched archive: same definitions and events as before, and its warnings.
  std::vector<std::string> readPatched() {
    Otf2Reader reader(anchor_, {});
    CollectingSink sink;
    reader.read(sink);
    EXPECT_EQ(sink.defs.records(), expected_.defs.records());
    EXPECT_EQ(sink.events, expected_.events);
    return reader.warnings();
  }

  std::string line(uint64_t declared, const std::string& what, uint64_t held) const {
    return anchor_.string() + ": the anchor declares " + std::to_string(declared) + " " + what +
           ", the definitions file holds " + std::to_string(held) + "; read as the file says";
  }

  TempDir tmp_;
  fs::path anchor_;
  DeclaredCounts original_;
  CollectingSink expected_;
};

TEST_F(DeclaredCountsTest, MoreGlobalDefinitionsThanTheFileHolds) {
  const uint64_t held = original_.definitions;
  patchCount(anchor_, kDefinitionsOffset, held, held + 2);
  ASSERT_EQ(declaredByOtf2(anchor_).definitions, held + 2);
  const auto check = testing::run("otf2-print --silent " + testing::quoted(anchor_));
  EXPECT_NE(check.status, 0) << "otf2-print accepts the patched archive";
  const std::vector<std::string> expected = {line(held + 2, "global definitions", held)};
  EXPECT_EQ(readPatched(), expected);
}

TEST_F(DeclaredCountsTest, FewerGlobalDefinitionsThanTheFileHolds) {
  const uint64_t held = original_.definitions;
  patchCount(anchor_, kDefinitionsOffset, held, held - 5);
  const std::vector<std::string> expected = {line(held - 5, "global definitions", held)};
  EXPECT_EQ(readPatched(), expected);
}

TEST_F(DeclaredCountsTest, MoreLocationsThanTheFileHolds) {
  patchCount(anchor_, kLocationsOffset, 2, 3);
  ASSERT_EQ(declaredByOtf2(anchor_).locations, 3u);
  const std::vector<std::string> expected = {line(3, "locations", 2)};
  EXPECT_EQ(readPatched(), expected);
}

TEST_F(DeclaredCountsTest, FewerLocationsThanTheFileHolds) {
  patchCount(anchor_, kLocationsOffset, 2, 1);
  const std::vector<std::string> expected = {line(1, "location", 2)};
  EXPECT_EQ(readPatched(), expected);
}

TEST_F(DeclaredCountsTest, BothCountsWrongGiveTwoWarnings) {
  patchCount(anchor_, kLocationsOffset, 2, 7);
  patchCount(anchor_, kDefinitionsOffset, original_.definitions, 9);
  const std::vector<std::string> expected = {line(9, "global definitions", original_.definitions),
                                             line(7, "locations", 2)};
  EXPECT_EQ(readPatched(), expected);
}

}  // namespace
}  // namespace mtf::otf2
