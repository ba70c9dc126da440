// Version 3's structure codecs on their own: column-wise definitions with text
// references, the column index, the LZMA2 wrapper; lossless, and refusing damage.
#include "converters/mtf/binary/structure_codec.hpp"

#include <gtest/gtest.h>

#include "converters/mtf/binary/definitions_codec.hpp"
#include "converters/mtf/binary/lzma_codec.hpp"
#include "converters/mtf/binary/node_columns.hpp"

namespace mtf::mtfbin {
namespace {

using compaction::CodingError;

// A TAU-like table: each line is kept as a property and again, with its quoted name,
// as String definitions; plus strings that are in no property, and short ones.
Definitions tauLikeDefinitions() {
  Definitions defs;
  defs.clock.resolution = 1'000'000;
  defs.info.format = "tau";
  std::string edf;
  for (int i = 0; i < 60; ++i)
    edf += std::to_string(i) + " TAU_USER 0 \"void function_" + std::to_string(i * 7) +
           "(int) C \" EntryExit\n";
  defs.info.properties["tau.edf.0"] = edf;
  defs.info.properties["tau.layout"] = "per-thread";
  uint64_t id = 0;
  size_t at = 0;
  while (at < edf.size()) {
    const size_t end = edf.find('\n', at);
    const std::string line = edf.substr(at, end - at);
    const size_t quote = line.find('"');
    const std::string name = line.substr(quote + 1, line.rfind('"') - quote - 1);
    defs.add({DefKind::String, {id++}, name});
    defs.add({DefKind::String, {id++}, line});
    defs.add({DefKind::Region, {id / 2, id - 2, id - 2, id - 1, 1, 1, 0, 0xFFFFFFFFu, 0, 0}, ""});
    at = end + 1;
  }
  defs.add({DefKind::String, {id++}, "no property holds this text"});
  defs.add({DefKind::String, {id++}, "ab"});
  defs.add({DefKind::Group, {0, 0, 4, 4, 0, 3, 7, 8, 9}, ""});
  return defs;
}

void expectSame(const Definitions& a, const Definitions& b) {
  EXPECT_EQ(a.records(), b.records());
  EXPECT_EQ(a.clock, b.clock);
  EXPECT_EQ(a.info.format, b.info.format);
  EXPECT_EQ(a.info.properties, b.info.properties);
}

TEST(DefinitionsV3, RoundTripIsLosslessAndRefersToTheProperties) {
  const Definitions defs = tauLikeDefinitions();
  const std::vector<uint8_t> v3 = encodeDefinitionsV3(defs);
  Definitions back;
  decodeDefinitionsSection(v3, back, 3);
  expectSame(defs, back);
  // The 120 texts that repeat the property (about 3,900 bytes) are references.
  size_t repeated = 0;
  for (const DefRecord& r : defs.records())
    if (r.text.size() > 4 && r.text.find("function_") != std::string::npos)
      repeated += r.text.size();
  EXPECT_GT(repeated, 2000u);
  EXPECT_LT(v3.size() + repeated * 8 / 10, encodeDefinitions(defs).size());
}

TEST(DefinitionsV3, EmptyDefinitionsRoundTrip) {
  Definitions defs, back;
  decodeDefinitionsSection(encodeDefinitionsV3(defs), back, 3);
  expectSame(defs, back);
}

TEST(DefinitionsV3, DamageIsACodingError) {
  const Definitions defs = tauLikeDefinitions();
  const std::vector<uint8_t> good = encodeDefinitionsV3(defs);
  for (size_t cut : {good.size() / 2, good.size() - 1}) {
    Definitions back;
    EXPECT_THROW(decodeDefinitionsSection({good.begin(), good.begin() + cut}, back, 3),
                 CodingError);
  }
  // A reference past the end of the properties.
  Definitions one;
  one.info.properties["p"] = "abcdefgh";
  one.add({DefKind::String, {0}, "cdef"});
  std::vector<uint8_t> bad = encodeDefinitionsV3(one);
  ASSERT_EQ(bad.back(), 12u);  // tag 1, start 0 + 2 (zigzag 4), end 0 + 6 (zigzag 12)
  bad.back() = 14;             // end 7: still inside
  Definitions inside;
  decodeDefinitionsSection(bad, inside, 3);
  EXPECT_EQ(inside.records().front().text, "cdefg");
  bad.back() = 18;  // end 9: past the 8 bytes of the properties
  Definitions back;
  EXPECT_THROW(decodeDefinitionsSection(bad, back, 3), CodingError);
  // A Group whose member count disagrees with its members.
  Definitions group;
  group.add({DefKind::Group, {0, 0, 4, 4, 0, 2, 7}, ""});
  Definitions back2;
  EXPECT_THROW(decodeDefinitionsSection(encodeDefinitionsV3(group), back2, 3), CodingError);
}

// Version 4's nodes: no event counts stored, the reader's sums equal the writer's.
TEST(NodeColumns, RoundTripComputesEventCountsAndRefusesDamage) {
  using compaction::Edge;
  using compaction::EdgeType;
  using compaction::Node;
  using compaction::NodeKind;
  compaction::CompactModel m;
  m.nodes = {Node{NodeKind::Other, 4, compaction::kNoSig, {}, 1},
             Node{NodeKind::Call, 1, 2, {Edge{0, 3, EdgeType::Regular}}, 5},
             Node{NodeKind::Call, 7, compaction::kNoSig, {Edge{1, 1, EdgeType::Recursive}}, 6},
             Node{NodeKind::Sequence,
                  compaction::kNoSig,
                  compaction::kNoSig,
                  {Edge{1, 2, EdgeType::Regular}, Edge{2, 1, EdgeType::Sequence}},
                  16}};
  const std::vector<uint8_t> bytes = encodeNodeColumns(m);
  compaction::CompactModel back;
  decodeNodeColumns(bytes, back);
  EXPECT_EQ(back.nodes, m.nodes);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    compaction::CompactModel part;
    EXPECT_THROW(decodeNodeColumns({bytes.begin(), bytes.begin() + cut}, part), CodingError);
  }
  std::vector<uint8_t> bad = bytes;
  bad[1] = 5;  // node kind 5
  EXPECT_THROW(decodeNodeColumns(bad, back), CodingError);
  bad = bytes;
  bad.back() = 3;  // edge type 3
  EXPECT_THROW(decodeNodeColumns(bad, back), CodingError);
}

TEST(ColumnIndexV3, RoundTripsAnyEntries) {
  std::vector<IndexEntry> index(4);
  uint64_t offset = kHeaderSize;
  for (size_t i = 0; i < index.size(); ++i) {
    IndexEntry& e = index[i];
    e.locationIndex = i % 2;
    e.offset = offset + (i == 2 ? 5 : 0);
    e.storedSize = 100 + i;
    offset = e.offset + chunkHeaderSize(kVersion, e.storedSize) + e.storedSize;
    e.meta.firstEvent = i / 2 * 10 + (i == 3 ? 1 : 0);
    e.meta.eventCount = 10;
    e.meta.firstTime = 1000 - i * 100;
    e.meta.lastTime = e.meta.firstTime + 50;
    e.meta.minTime = i == 1 ? e.meta.firstTime + 3 : e.meta.firstTime - 2;  // even if odd
    e.meta.maxTime = i == 3 ? UINT64_MAX : e.meta.lastTime;
  }
  const std::vector<IndexEntry> back = decodeColumnIndex(encodeColumnIndex(index));
  ASSERT_EQ(back.size(), index.size());
  for (size_t i = 0; i < index.size(); ++i) {
    EXPECT_EQ(back[i].kind, ChunkKind::Columns);
    EXPECT_EQ(back[i].offset, index[i].offset);
    EXPECT_EQ(back[i].storedSize, index[i].storedSize);
    EXPECT_EQ(back[i].locationIndex, index[i].locationIndex);
    EXPECT_EQ(back[i].meta.firstEvent, index[i].meta.firstEvent);
    EXPECT_EQ(back[i].meta.eventCount, index[i].meta.eventCount);
    EXPECT_EQ(back[i].meta.firstTime, index[i].meta.firstTime);
    EXPECT_EQ(back[i].meta.lastTime, index[i].meta.lastTime);
    EXPECT_EQ(back[i].meta.minTime, index[i].meta.minTime);
    EXPECT_EQ(back[i].meta.maxTime, index[i].meta.maxTime);
  }
}

TEST(StructureV3, SectionsRoundTripAndDamageNamesTheSection) {
  compaction::CompactModel m;
  m.definitions = tauLikeDefinitions();
  std::vector<IndexEntry> index(1);
  index[0].offset = kHeaderSize;
  SectionSizes sizes{};
  const std::vector<uint8_t> raw = encodeStructure(m, index, &sizes);
  compaction::CompactModel back;
  std::vector<IndexEntry> backIndex;
  SectionSizes backSizes{};
  decodeStructure(raw, kVersion, back, backIndex, &backSizes);
  EXPECT_EQ(back.definitions.records(), m.definitions.records());
  EXPECT_EQ(backIndex.size(), 1u);
  EXPECT_EQ(backSizes, sizes);
  std::vector<uint8_t> extra = raw;
  extra.push_back(0);
  EXPECT_THROW(decodeStructure(extra, kVersion, back, backIndex), CodingError);
  std::vector<uint8_t> bad = raw;
  std::vector<uint8_t> lengthOfDefinitions;
  compaction::putVarint(lengthOfDefinitions, sizes[1]);
  // The definitions' first byte (in the clock's resolution) becomes a runaway varint.
  for (size_t i = 0; i < 10; ++i) bad[1 + sizes[0] + lengthOfDefinitions.size() + i] = 0xFF;
  try {
    compaction::CompactModel again;
    decodeStructure(bad, kVersion, again, backIndex);
    ADD_FAILURE() << "accepted damaged definitions";
  } catch (const CodingError& e) {
    EXPECT_NE(e.what.find("definitions"), std::string::npos) << e.what;
  }
}

TEST(Lzma, RoundTripAndRefusals) {
  std::vector<uint8_t> data;
  for (int i = 0; i < 5000; ++i) data.push_back(static_cast<uint8_t>(i * i % 251));
  const std::vector<uint8_t> packed = lzmaCompress(data.data(), data.size());
  ASSERT_FALSE(packed.empty());
  EXPECT_LT(packed.size(), data.size());
  std::vector<uint8_t> out;
  ASSERT_TRUE(lzmaDecompress(packed.data(), packed.size(), data.size(), out));
  EXPECT_EQ(out, data);
  EXPECT_FALSE(lzmaDecompress(packed.data(), packed.size(), data.size() - 1, out));
  EXPECT_FALSE(lzmaDecompress(packed.data(), packed.size(), data.size() + 1, out));
  EXPECT_FALSE(lzmaDecompress(packed.data(), packed.size() - 3, data.size(), out));
  std::vector<uint8_t> hugeDictionary = packed;
  hugeDictionary[0] = 40;
  EXPECT_FALSE(lzmaDecompress(hugeDictionary.data(), hugeDictionary.size(), data.size(), out));
  const std::vector<uint8_t> empty = lzmaCompress(nullptr, 0);
  ASSERT_FALSE(empty.empty());
  EXPECT_TRUE(lzmaDecompress(empty.data(), empty.size(), 0, out));
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace mtf::mtfbin
