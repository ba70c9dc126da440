#include "converters/otf2/otf2_property_store.hpp"

#include <gtest/gtest.h>

#include "util/error.hpp"

namespace mtf::otf2 {
namespace {

// Definitions holding a few strings, as a trace's own definitions would.
Definitions someDefinitions() {
  Definitions defs;
  for (uint64_t id = 0; id < 3; ++id) defs.add({DefKind::String, {id}, "s" + std::to_string(id)});
  defs.add({DefKind::String, {7}, "seven"});
  return defs;
}

// What a reader gets: the definitions plus the planned strings, the anchor's properties.
Definitions writeAndRead(const Definitions& original, const PropertyPlan& plan) {
  Definitions read;
  read.clock = original.clock;
  for (const DefRecord& r : original.records()) read.add(r);
  for (const DefRecord& r : plan.strings) read.add(r);
  std::string pointer;
  for (const auto& [name, value] : plan.anchor) {
    if (name == kStoredPropertiesName)
      pointer = value;
    else
      read.info.properties[name] = value;  // the anchor's names, as OTF2 gives them
  }
  if (!pointer.empty()) restoreStoredProperties(read, pointer, "x/traces.otf2");
  return read;
}

uint64_t anchorBytes(const PropertyPlan& plan) {
  uint64_t bytes = 0;
  for (const auto& [name, value] : plan.anchor) bytes += name.size() + value.size() + 2;
  return bytes;
}

TEST(PropertyStore, SmallPropertiesStayInTheAnchorUnderTheirNames) {
  TraceInfo info;
  info.properties = {{"paraver.pcf", "STATES\n"}, {"otf2:OTF2::MPI_COMMUNICATOR", "x"}};
  const PropertyPlan plan = planProperties(info, 8);
  EXPECT_TRUE(plan.strings.empty());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"OTF2::MPI_COMMUNICATOR", "x"}, {"MTF::PARAVER_2EPCF", "STATES\n"}};
  EXPECT_EQ(plan.anchor, expected);
}

TEST(PropertyStore, LargeAndEmptyValuesGoToTheDefinitionsAndComeBack) {
  Definitions defs = someDefinitions();
  defs.info.properties = {{"tau.edf.0", std::string(300 * 1024, 'a') + "end"},
                          {"tau.layout", "per-thread"},
                          {"empty", ""}};
  const PropertyPlan plan = planProperties(defs.info, nextFreeString(defs.records()));
  // Descriptor + 5 pieces for the edf, a descriptor alone for the empty value.
  ASSERT_EQ(plan.strings.size(), 7u);
  EXPECT_EQ(plan.strings.front().fields[0], 8u);  // after the highest id in use
  for (const DefRecord& r : plan.strings) EXPECT_LE(r.text.size(), kPropertyPieceBytes);
  EXPECT_EQ(plan.anchor.back(),
            std::make_pair(std::string(kStoredPropertiesName), std::string("8 7")));
  EXPECT_LE(anchorBytes(plan), kAnchorPropertyBudget);

  const Definitions read = writeAndRead(defs, plan);
  EXPECT_EQ(read.info.properties.at("tau.edf.0"), defs.info.properties.at("tau.edf.0"));
  EXPECT_EQ(read.info.properties.at("empty"), "");
  EXPECT_EQ(read.info.properties.at("MTF::TAU_2ELAYOUT"), "per-thread");
  EXPECT_EQ(read.records(), defs.records());  // the stored strings are gone
}

TEST(PropertyStore, ManyPropertiesFillTheAnchorOnlyUpToItsBudget) {
  Definitions defs = someDefinitions();
  for (int i = 0; i < 400; ++i)
    defs.info.properties["key" + std::to_string(1000 + i)] = std::string(1000, 'v');
  defs.info.creator = std::string(5000, 'c');
  const PropertyPlan plan = planProperties(defs.info, nextFreeString(defs.records()));
  EXPECT_FALSE(plan.strings.empty());
  EXPECT_LE(anchorBytes(plan) + defs.info.creator.size() + 1, kAnchorPropertyBudget);
  EXPECT_GT(anchorBytes(plan), kAnchorPropertyBudget / 2);
  const Definitions read = writeAndRead(defs, plan);
  size_t restored = 0;
  for (const auto& [key, value] : read.info.properties)
    if (key.starts_with("key")) ++restored;
  EXPECT_EQ(restored + plan.anchor.size() - 1, 400u);
}

TEST(PropertyStore, PiecesAreNeverCutInsideAUtf8Character) {
  TraceInfo info;
  std::string text = "x";
  while (text.size() < 3 * kPropertyPieceBytes) text += "\xC3\xA9";  // é
  info.properties["text"] = text;
  const PropertyPlan plan = planProperties(info, 0);
  ASSERT_GT(plan.strings.size(), 3u);
  for (size_t i = 1; i < plan.strings.size(); ++i)
    EXPECT_NE(static_cast<unsigned char>(plan.strings[i].text[0]) & 0xC0, 0x80) << i;
}

// Reading: a broken pointer or broken strings are bad input naming the anchor.
void expectInputError(Definitions defs, const std::string& pointer, const std::string& part) {
  try {
    restoreStoredProperties(defs, pointer, "x/traces.otf2");
    FAIL() << "no error for " << pointer;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("x/traces.otf2"), std::string::npos) << what;
    EXPECT_NE(what.find(part), std::string::npos) << what;
  }
}

TEST(PropertyStore, MalformedStoredPropertiesAreInputErrors) {
  Definitions defs = someDefinitions();
  expectInputError(defs, "eight", "malformed value 'eight'");
  expectInputError(defs, "8 2", "string 8: stored property missing");
  defs.add({DefKind::String, {8}, "KEY 1 5"});
  defs.add({DefKind::String, {9}, "abc"});
  expectInputError(defs, "8 2", "'key' holds 3 bytes, its descriptor 5");
  expectInputError(defs, "9 1", "string 9: stored property descriptor is malformed");
  expectInputError(defs, "8 1", "descriptor is malformed");  // its piece lies outside
}

}  // namespace
}  // namespace mtf::otf2
