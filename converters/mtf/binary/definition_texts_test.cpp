// Version 4's definition texts on their own: columns, texts derived from the other strings
// of their definition, numbers predicted along a column, properties as pieces; lossless
// on odd inputs, smaller than version 3 where texts repeat, and refusing damage.
#include "converters/mtf/binary/definition_texts.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "converters/mtf/binary/definitions_codec.hpp"
#include "converters/mtf/binary/lzma_codec.hpp"
#include "converters/mtf/binary/well_known_strings.hpp"

namespace mtf::mtfbin {
namespace {

using compaction::CodingError;

constexpr uint64_t kUndefined = 0xFFFFFFFFu;

// As the TAU reader makes them: per region a name, a canonical name (name + " C ") and a
// description (its edf line), the edf being the lines in order.
Definitions tauLike(int regions) {
  Definitions defs;
  defs.info.format = "tau";
  std::string edf = "201 dynamic_trace_events\n# FunctionId Group Tag \"Name Type\" Parameters\n";
  uint64_t s = 0;
  for (int i = 0; i < regions; ++i) {
    // A letter that changes: names that differ only in a number would be numbered texts.
    const std::string name =
        "void function_" + std::string(1, char('a' + i % 26)) + std::to_string(i * 7) + "(int)";
    const std::string canonical = name + " C ";
    const std::string line = std::to_string(i + 1) + " TAU_USER 0 \"" + canonical + "\" EntryExit";
    edf += line + "\n";
    defs.add({DefKind::String, {s}, name});
    defs.add({DefKind::String, {s + 1}, canonical});
    defs.add({DefKind::String, {s + 2}, line});
    defs.add({DefKind::Region, {uint64_t(i), s, s + 1, s + 2, 1, 1, 0, kUndefined, 0, 0}, ""});
    s += 3;
  }
  defs.info.properties["tau.edf.0"] = edf;
  defs.info.properties["tau.layout"] = "per-thread";
  return defs;
}

Definitions roundTrip(const Definitions& defs) {
  Definitions back;
  decodeDefinitionsSection(encodeDefinitionsSection(defs), back, kVersion);
  EXPECT_EQ(back.records(), defs.records());
  EXPECT_EQ(back.info.properties, defs.info.properties);
  EXPECT_EQ(back.clock, defs.clock);
  return back;
}

TEST(DefinitionTexts, TauTableRoundTripsAndCostsFarLessThanVersion3) {
  const Definitions defs = tauLike(200);
  roundTrip(defs);
  // Compressed as the Structure chunk is: version 3 holds the edf and three references per
  // region, version 4 the names and, for the other texts and the edf's lines, templates
  // that repeat along their column: next to nothing beyond the names.
  const std::vector<uint8_t> v3 = encodeDefinitionsV3(defs), v4 = encodeDefinitionsSection(defs);
  std::vector<uint8_t> names;
  for (const DefRecord& r : defs.records())
    if (r.kind == DefKind::String && r.text.ends_with(")")) compaction::putString(names, r.text);
  const size_t packedNames = lzmaCompress(names.data(), names.size()).size();
  const size_t packed3 = lzmaCompress(v3.data(), v3.size()).size();
  const size_t packed4 = lzmaCompress(v4.data(), v4.size()).size();
  // Beyond the names: the Region columns and the edf's header line, and in version 3
  // the references besides.
  EXPECT_LT((packed4 - packedNames) * 3, (packed3 - packedNames) * 2)
      << "v3 " << packed3 << ", v4 " << packed4 << ", names " << packedNames;
}

TEST(DefinitionTexts, ColumnsGroupTheStringsByTheFieldNamingThemFirst) {
  Definitions defs;
  defs.add({DefKind::String, {0}, "region a"});
  defs.add({DefKind::String, {1}, "nobody's"});
  defs.add({DefKind::String, {2}, "attribute"});
  defs.add({DefKind::String, {3}, "region b"});
  defs.add({DefKind::Attribute, {0, 2, 0, 1}, ""});
  defs.add({DefKind::Region, {0, 0, 0, 3, 1, 1, 0, kUndefined, 0, 0}, ""});
  // Attribute (kind 4) name, Attribute description, Region (kind 8) name, Region
  // description; then the string nobody names; then the two other records.
  EXPECT_EQ(textOrder(defs.records()), (std::vector<size_t>{2, 0, 3, 1, 4, 5}));
  roundTrip(defs);
}

TEST(DefinitionTexts, OddInputsStayExact) {
  Definitions defs;
  // Numbers of every shape in prefixes and suffixes: leading zeros, 0, 18 and 20 digits.
  const std::vector<std::string> affixes = {
      "007 ", "0 ", "123456789012345678 x", "18446744073709551615", "", "9-9-9", "1 2 3 4"};
  uint64_t s = 0;
  for (size_t i = 0; i < affixes.size(); ++i) {
    const std::string name = "n" + std::to_string(i);
    defs.add({DefKind::String, {s}, name});
    defs.add({DefKind::String, {s + 1}, affixes[i] + name + affixes[affixes.size() - 1 - i]});
    defs.add({DefKind::Region, {i, s, s + 1, s + 1, 1, 1, 0, kUndefined, 0, 0}, ""});
    s += 2;
  }
  defs.add({DefKind::String, {s}, ""});                 // empty, named by nothing
  defs.add({DefKind::String, {0}, "a second self 0"});  // a duplicate self
  defs.add({DefKind::Region, {99, kUndefined, 12345, s, 1, 1, 0, kUndefined, 0, 0}, "odd"});
  defs.info.properties["k"] = "n1n2n3 and 007 n0007 n6 more";
  defs.info.properties["empty"] = "";
  roundTrip(defs);
}

TEST(DefinitionTexts, PropertiesReferToTheTextsTheyRepeat) {
  Definitions plain = tauLike(100), noEdf = tauLike(100);
  noEdf.info.properties.erase("tau.edf.0");
  const size_t withEdf = encodeDefinitionsSection(plain).size();
  const size_t without = encodeDefinitionsSection(noEdf).size();
  // 100 lines of about 45 bytes, each a piece: a newline and a zero difference.
  EXPECT_LT(withEdf, without + 100 * 3 + 100);
  roundTrip(plain);
}

// Paraver's default states and colours (appendix C) cost a piece in any property.
TEST(DefinitionTexts, PropertiesReferToWellKnownTexts) {
  const std::string_view states = wellKnownStrings(4).back();
  ASSERT_GT(states.size(), 1000u);
  Definitions defs;
  defs.info.properties["paraver.pcf"] =
      "DEFAULT_OPTIONS\n\n" + std::string(states) + "\n\nEVENT_TYPE\n0 42 user\n";
  EXPECT_LT(encodeDefinitionsSection(defs).size(), 80u);
  roundTrip(defs);
}

TEST(DefinitionTexts, DamageIsACodingError) {
  const Definitions defs = tauLike(20);
  const std::vector<uint8_t> good = encodeDefinitionsSection(defs);
  for (size_t cut = 1; cut < good.size(); cut += good.size() / 17) {
    Definitions back;
    EXPECT_THROW(decodeDefinitionsSection({good.begin(), good.begin() + cut}, back, kVersion),
                 CodingError)
        << cut;
  }
  // One String, its Region naming it; the texts: tag, the literal.
  Definitions one;
  one.add({DefKind::String, {0}, "abc"});
  one.add({DefKind::Region, {0, 0, 0, 0, 1, 1, 0, kUndefined, 0, 0}, ""});
  std::vector<uint8_t> bytes = encodeDefinitionsSection(one);
  // The end: tags 00 00, literals 03 "abc" 00 (the Region's empty text), 00 properties.
  const size_t tags = bytes.size() - 8;
  ASSERT_EQ(bytes[tags], 0u);
  std::vector<uint8_t> bad = bytes;
  bad[tags] = 2;  // an unknown tag
  Definitions back;
  EXPECT_THROW(decodeDefinitionsSection(bad, back, kVersion), CodingError);
  // Numbered (version 5), but the first text of its column.
  bad[tags] = 3;
  EXPECT_THROW(decodeDefinitionsSection(bad, back, kVersion), CodingError);
  // Derived from field 1 (name): the string itself, not one coded before.
  bad = bytes;
  bad[tags] = 1;
  bad.insert(bad.begin() + static_cast<long>(tags) + 2, {1, 0, 0, 0, 0});
  Definitions back2;
  EXPECT_THROW(decodeDefinitionsSection(bad, back2, kVersion), CodingError);
  // A property piece naming a text past the last.
  Definitions piece;
  piece.add({DefKind::String, {0}, "a long enough text"});
  piece.info.properties["p"] = "<a long enough text>";
  bad = encodeDefinitionsSection(piece);
  // ... 01 "p", 01 piece, 01 "<", 00 (text 0), 01 ">"
  ASSERT_EQ(bad[bad.size() - 3], 0u);
  // Version 4, text 409: there are 1, then the 408 well-known strings.
  bad[bad.size() - 3] = 0xb2;  // zigzag(409 - 0) = 818: b2 06
  bad.insert(bad.end() - 2, 0x06);
  Definitions back3, back4, back5;
  EXPECT_THROW(decodeDefinitionsSection(bad, back3, 4), CodingError);
  // Version 5 has 21 more: text 409 is the first of them, 430 is past the last.
  decodeDefinitionsSection(bad, back4, 5);
  EXPECT_EQ(back4.info.properties.at("p"), "<Paraver record field>");
  bad[bad.size() - 4] = 0xdc;  // zigzag(430 - 0) = 860: dc 06
  EXPECT_THROW(decodeDefinitionsSection(bad, back5, 5), CodingError);
}

// Numbered texts (version 5): a column counting up costs a byte or two a text, and a
// numbered text never starts a column.
TEST(DefinitionTexts, NumberedTextsCostAByteEach) {
  Definitions counted, spelled, empty;  // empty: the same records with empty texts
  for (uint64_t i = 0; i < 60; ++i) {
    counted.add({DefKind::String, {i}, "TAU communicator " + std::to_string(i + 1)});
    spelled.add({DefKind::String, {i}, "TAU communicator " + std::string(i + 1, 'x')});
    empty.add({DefKind::String, {i}, ""});
  }
  roundTrip(counted);
  roundTrip(spelled);
  roundTrip(empty);
  const size_t numbered = encodeDefinitionsSection(counted).size();
  EXPECT_LT(numbered * 5, encodeDefinitionsSection(spelled).size());
  // Beyond empty texts: the first text, then a byte each (02: one more).
  EXPECT_LE(numbered, encodeDefinitionsSection(empty).size() + 19 + 59);
  Definitions mixed;  // numbers, leading zeros and long runs are kept as they are
  for (const char* text : {"a 1.2.3", "a 1.3.3", "a 01.3.3", "b 2", "b 19999999999999999999 3",
                           "b 19999999999999999999 4", "b 0 4", "b 0 5", "c", "c"})
    mixed.add({DefKind::String, {mixed.records().size()}, text});
  roundTrip(mixed);
}

// The table the writer and reader know is the one docs/mtf-format.md lists (appendix C),
// from which the spec reader takes it.
TEST(DefinitionTexts, WellKnownStringsAreTheDocumentsAppendixC) {
  std::ifstream doc(std::filesystem::path(MTF_SOURCE_DIR) / "docs/mtf-format.md");
  ASSERT_TRUE(doc) << "docs/mtf-format.md";
  std::stringstream text;
  text << doc.rdbuf();
  const std::string all = text.str();
  const std::string open = "```mtf-well-known-strings\n";
  const size_t start = all.find(open);
  ASSERT_NE(start, std::string::npos);
  const size_t end = all.find("```", start + open.size());
  std::istringstream block(all.substr(start + open.size(), end - start - open.size()));
  std::vector<std::string> listed;
  for (std::string line; std::getline(block, line);) listed.push_back(line);
  // Then each block's text, verbatim (its last newline included).
  const std::string openText = "```mtf-well-known-text\n";
  for (size_t at = all.find(openText); at != std::string::npos; at = all.find(openText, at + 1)) {
    const size_t from = at + openText.size();
    listed.push_back(all.substr(from, all.find("```", from) - from));
  }
  EXPECT_EQ(listed.size(), wellKnownStrings(4).size());
  // Then (version 5) the strings of mtf's readers, one a line.
  const std::string open5 = "```mtf-well-known-strings-5\n";
  const size_t start5 = all.find(open5);
  ASSERT_NE(start5, std::string::npos);
  std::istringstream block5(all.substr(
      start5 + open5.size(), all.find("```", start5 + open5.size()) - start5 - open5.size()));
  for (std::string line; std::getline(block5, line);) listed.push_back(line);
  const std::string openText5 = "```mtf-well-known-text-5\n";
  for (size_t at = all.find(openText5); at != std::string::npos; at = all.find(openText5, at + 1)) {
    const size_t from = at + openText5.size();
    listed.push_back(all.substr(from, all.find("```", from) - from));
  }
  const auto table = wellKnownStrings();
  ASSERT_EQ(listed.size(), table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(listed[i], table[i]) << i;
    EXPECT_EQ(wellKnownIndex(table[i]), i);
  }
  EXPECT_FALSE(wellKnownIndex("MPI_Not_a_function").has_value());
}

// Score-P defines a region for each MPI function it wraps: named by number, their names
// cost next to nothing.
TEST(DefinitionTexts, WellKnownNamesCostNextToNothing) {
  Definitions defs, spelled;
  const auto table = wellKnownStrings();
  for (size_t i = 0; i < table.size(); i += 2) {
    const uint64_t self = i / 2;
    for (Definitions* d : {&defs, &spelled}) {
      const std::string name = d == &defs ? std::string(table[i]) : "X" + std::string(table[i]);
      d->add({DefKind::String, {self}, name});
      d->add({DefKind::Region, {self, self, self, kUndefined, 1, 4, 0, kUndefined, 0, 0}, ""});
    }
  }
  roundTrip(defs);
  roundTrip(spelled);
  const std::vector<uint8_t> known = encodeDefinitionsSection(defs),
                             literal = encodeDefinitionsSection(spelled);
  const size_t packedKnown = lzmaCompress(known.data(), known.size()).size();
  const size_t packedLiteral = lzmaCompress(literal.data(), literal.size()).size();
  EXPECT_LT(packedKnown * 4, packedLiteral) << packedKnown << " against " << packedLiteral;
  // A number past the table is refused: one String, tag 2, its number.
  Definitions one;
  one.add({DefKind::String, {0}, "MPI_Wtime"});
  ASSERT_EQ(wellKnownIndex("MPI_Wtime"), 406u);
  ASSERT_EQ(wellKnownStrings(4).size(), 408u);
  std::vector<uint8_t> bad = encodeDefinitionsSection(one);
  // ... tag 02, number zigzag(406 - (-1) - 1) = 812 (ac 06), no properties 00.
  ASSERT_EQ(bad[bad.size() - 3], 0xacu);
  roundTrip(one);
  bad[bad.size() - 3] = 0xb0;  // 816: number 408
  Definitions back;
  EXPECT_THROW(decodeDefinitionsSection(bad, back, 4), CodingError);
}

}  // namespace
}  // namespace mtf::mtfbin
