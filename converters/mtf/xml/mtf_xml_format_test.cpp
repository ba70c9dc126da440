#include "converters/mtf/xml/mtf_xml_format.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "converters/mtf/xml/mtf_xml_model.hpp"
#include "converters/mtf/xml/test_trace.hpp"
#include "converters/mtf/xml/xml_validate.hpp"
#include "converters/otf2/otf2_format.hpp"
#include "converters/otf2/otf2_test_util.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf {
namespace {

using otf2::testing::TempDir;

const fs::path kTraces = fs::path(MTF_DATA_DIR) / "otf2";

// Reads `input` with the OTF2 reader and writes it with the MTF XML writer.
fs::path otf2ToXml(const fs::path& input, const fs::path& output, bool structureOnly = false) {
  auto source = otf2Format().openReader(input, {});
  WriteOptions options;
  options.structureOnly = structureOnly;
  auto sink = mtfXmlFormat().openWriter(output, options);
  source->read(*sink);
  return output;
}

TEST(MtfXmlFormat, EntryAndSniff) {
  const FormatEntry entry = mtfXmlFormat();
  EXPECT_EQ(entry.name, "mtf-xml");
  EXPECT_EQ(entry.extensions, std::vector<std::string>{".mtf.xml"});
  TempDir dir;
  const fs::path xml =
      otf2ToXml(kTraces / "pipit-ping-pong" / "traces.otf2", dir.path() / "t.mtf.xml");
  EXPECT_TRUE(entry.sniff(xml));
  EXPECT_TRUE(entry.sniff(dir.path()) == false);
  EXPECT_FALSE(entry.sniff(kTraces / "pipit-ping-pong" / "traces.otf2"));
  EXPECT_FALSE(entry.sniff(dir.path() / "absent.mtf.xml"));
  const fs::path other = dir.path() / "other.xml";
  std::ofstream(other) << "<?xml version=\"1.0\"?><Scenario xmlns=\"urn:else\"/>";
  EXPECT_FALSE(entry.sniff(other));
  EXPECT_FALSE(otf2Format().sniff(xml));
}

// Every event of real traces comes back from the XML exactly as the OTF2 reader gave it.
TEST(MtfXmlFormat, RealTracesRoundTripThroughXml) {
  for (const char* name :
       {"pipit-ping-pong", "pipit-ping-pong-papi", "sst-macro-mpi", "fastotf2-mi300"}) {
    SCOPED_TRACE(name);
    const fs::path input = kTraces / name / "traces.otf2";
    otf2::testing::CollectingSink original;
    otf2Format().openReader(input, {})->read(original);
    TempDir dir;
    const fs::path xml = otf2ToXml(input, dir.path() / "t.mtf.xml");
    EXPECT_NO_THROW(xml::validateAgainstSchema(xml, xml::locateSchema()));
    otf2::testing::CollectingSink back;
    mtfXmlFormat().openReader(xml, {})->read(back);
    EXPECT_EQ(back.defs.records(), original.defs.records());
    EXPECT_EQ(back.defs.clock, original.defs.clock);
    EXPECT_EQ(back.defs.info.properties, original.defs.info.properties);
    ASSERT_EQ(back.events.size(), original.events.size());
    EXPECT_TRUE(back.events == original.events);
  }
}

// Acceptance: OTF2 -> .mtf.xml -> OTF2 gives the same otf2-print event lines.
TEST(MtfXmlFormat, Otf2ThroughXmlGivesIdenticalOtf2PrintLines) {
  for (const char* name : {"pipit-ping-pong", "sst-macro-mpi"}) {
    SCOPED_TRACE(name);
    const fs::path input = kTraces / name / "traces.otf2";
    TempDir dir;
    const fs::path xml = otf2ToXml(input, dir.path() / "t.mtf.xml");
    const fs::path anchor = dir.path() / "out" / "traces.otf2";
    fs::create_directories(anchor.parent_path());
    auto source = mtfXmlFormat().openReader(xml, {});
    auto sink = otf2Format().openWriter(anchor, {});
    source->read(*sink);
    const auto expected = otf2::testing::otf2PrintEventLines(input);
    ASSERT_GT(expected.size(), 100u);
    EXPECT_EQ(otf2::testing::otf2PrintEventLines(anchor), expected);
  }
}

TEST(MtfXmlFormat, StructureOnlyCannotGiveEventsBack) {
  TempDir dir;
  const fs::path xml =
      otf2ToXml(kTraces / "pipit-ping-pong" / "traces.otf2", dir.path() / "s.mtf.xml", true);
  auto source = mtfXmlFormat().openReader(xml, {});
  EXPECT_GT(source->definitions().records().size(), 0u);  // the model itself is readable
  otf2::testing::CollectingSink sink;
  try {
    source->read(sink);
    FAIL() << "a structure-only file gave events";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("structure-only"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(sink.events.empty());
}

// The writer runs NLR: the loop nest is stored (annotation) and shown (<Loops>), and the
// file still validates.
TEST(MtfXmlFormat, LoopNestsAreStoredAndShown) {
  TempDir dir;
  const auto trace = xml::testing::makeSyntheticTrace(60);
  for (bool loops : {true, false}) {
    WriteOptions options;
    options.loops = loops;
    options.structureOnly = true;
    const fs::path p = dir.path() / (loops ? "loops.mtf.xml" : "plain.mtf.xml");
    auto sink = mtfXmlFormat().openWriter(p, options);
    xml::testing::pumpInto(trace, *sink);
    std::ifstream in(p);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(std::regex_search(text, std::regex("<Loop body=\"[0-9]+\" iterations=\"[0-9]+\"")),
              loops);
    EXPECT_EQ(text.find("name=\"nlr.loops\"") != std::string::npos, loops);
    EXPECT_NO_THROW(xml::validateAgainstSchema(p, xml::locateSchema()));
    const xml::XmlModel back = xml::readModelXml(p);
    size_t annotated = 0;
    for (const auto& location : back.model.locations)
      for (const auto& a : location.annotations) annotated += a.name == "nlr.loops";
    EXPECT_EQ(annotated, loops ? 2u : 0u);
  }
}

// `mtf validate`: schema, model and every value column.
TEST(MtfXmlFormat, ValidateChecksSchemaModelAndColumns) {
  TempDir dir;
  const fs::path good =
      otf2ToXml(kTraces / "pipit-ping-pong" / "traces.otf2", dir.path() / "g.mtf.xml");
  const std::string summary = xml::validateMtfXmlFile(good);
  EXPECT_NE(summary.find("valid MTF XML"), std::string::npos) << summary;
  EXPECT_NE(summary.find("every value column decoded"), std::string::npos) << summary;
  std::ifstream in(good);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto mutated = [&](const std::string& pattern, const std::string& replacement) {
    const fs::path p = dir.path() / "bad.mtf.xml";
    std::ofstream(p) << std::regex_replace(text, std::regex(pattern), replacement,
                                           std::regex_constants::format_first_only);
    return p;
  };
  // Valid base64, valid schema, but bytes the column decoder must refuse.
  EXPECT_THROW(
      xml::validateMtfXmlFile(mutated(">[A-Za-z0-9+/=]{8,}</Values>", ">AAAAAAAA</Values>")),
      InputError);
  try {
    xml::validateMtfXmlFile(mutated("<Nodes>", "<Nodes><Edge to=\"n0\"/>"));
    FAIL() << "schema-breaking file accepted";
  } catch (const InputError& e) {
    EXPECT_TRUE(std::regex_search(e.what(), std::regex("line [0-9]+, column [0-9]+"))) << e.what();
  }
  EXPECT_THROW(xml::validateMtfXmlFile(good, dir.path() / "no.xsd"), IoError);
}

}  // namespace
}  // namespace mtf
