#include "converters/mtf/xml/mtf_xml_model.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "compaction/compactor.hpp"
#include "compaction/decompactor.hpp"
#include "converters/mtf/xml/test_trace.hpp"
#include "converters/mtf/xml/xml_validate.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::xml {
namespace {

using compaction::CompactModel;
using testing::makeSyntheticTrace;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class MtfXmlModel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mtf_xml_model_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The synthetic trace compacted, with annotations so every part of the model is used.
  static CompactModel compacted(uint64_t iterations, uint64_t chunkEvents = 64) {
    compaction::Compactor compactor({chunkEvents, 6});
    testing::pumpInto(makeSyntheticTrace(iterations), compactor);
    CompactModel model = std::move(compactor.model());
    model.annotations.push_back({"trace-note", {0, 1, 2, 255}});
    model.locations.at(0).annotations.push_back({"nlr", {9, 8, 7}});
    return model;
  }
  fs::path write(const CompactModel& model, const std::string& name, bool structureOnly = false) {
    const fs::path p = dir_ / name;
    writeModelXml(model, p, structureOnly);
    return p;
  }
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  fs::path dir_;
};

void expectSameModel(const CompactModel& a, const CompactModel& b, bool withColumns) {
  EXPECT_EQ(a.definitions.records(), b.definitions.records());
  EXPECT_EQ(a.definitions.clock, b.definitions.clock);
  EXPECT_EQ(a.definitions.info.properties, b.definitions.info.properties);
  EXPECT_EQ(a.definitions.info.creator, b.definitions.info.creator);
  EXPECT_EQ(a.signatures, b.signatures);
  EXPECT_EQ(a.nodes, b.nodes);
  ASSERT_EQ(a.locations.size(), b.locations.size());
  for (size_t i = 0; i < a.locations.size(); ++i) {
    const auto& la = a.locations[i];
    const auto& lb = b.locations[i];
    EXPECT_EQ(la.location, lb.location);
    EXPECT_EQ(la.root, lb.root);
    EXPECT_EQ(la.eventCount, lb.eventCount);
    ASSERT_EQ(la.annotations.size(), lb.annotations.size());
    for (size_t k = 0; k < la.annotations.size(); ++k) {
      EXPECT_EQ(la.annotations[k].name, lb.annotations[k].name);
      EXPECT_EQ(la.annotations[k].data, lb.annotations[k].data);
    }
    if (!withColumns) {
      EXPECT_TRUE(lb.columns.empty());
      continue;
    }
    ASSERT_EQ(la.columns.size(), lb.columns.size());
    for (size_t c = 0; c < la.columns.size(); ++c) {
      EXPECT_EQ(la.columns[c].firstEvent, lb.columns[c].firstEvent);
      EXPECT_EQ(la.columns[c].eventCount, lb.columns[c].eventCount);
      EXPECT_EQ(la.columns[c].firstTime, lb.columns[c].firstTime);
      EXPECT_EQ(la.columns[c].lastTime, lb.columns[c].lastTime);
      EXPECT_EQ(la.columns[c].encoded, lb.columns[c].encoded);
    }
  }
  ASSERT_EQ(a.annotations.size(), b.annotations.size());
  EXPECT_EQ(a.annotations[0].data, b.annotations[0].data);
}

TEST_F(MtfXmlModel, ModelRoundTripsExactly) {
  const CompactModel model = compacted(40);
  ASSERT_TRUE(model.check().empty());
  ASSERT_GT(model.locations.at(0).columns.size(), 1u);  // several chunks
  const XmlModel back = readModelXml(write(model, "t.mtf.xml"));
  EXPECT_FALSE(back.structureOnly);
  expectSameModel(model, back.model, true);
}

TEST_F(MtfXmlModel, EventsComeBackExactly) {
  const auto trace = makeSyntheticTrace(25);
  const XmlModel back = readModelXml(write(compacted(25), "t.mtf.xml"));
  auto shared = std::make_shared<const CompactModel>(back.model);
  testing::CollectingSink sink;
  compaction::ModelSource(shared).read(sink);
  EXPECT_EQ(sink.events, trace.events);
}

TEST_F(MtfXmlModel, StructureOnlyLeavesValuesOut) {
  const CompactModel model = compacted(40);
  const fs::path full = write(model, "full.mtf.xml");
  const fs::path structure = write(model, "structure.mtf.xml", true);
  EXPECT_LT(fs::file_size(structure), fs::file_size(full));
  EXPECT_EQ(slurp(structure).find("<Values"), std::string::npos);
  const XmlModel back = readModelXml(structure);
  EXPECT_TRUE(back.structureOnly);
  expectSameModel(model, back.model, false);
}

TEST_F(MtfXmlModel, StructureOnlySizeDoesNotGrowWithIterations) {
  const fs::path small = write(compacted(249), "s249.mtf.xml", true);
  const fs::path large = write(compacted(2490), "s2490.mtf.xml", true);
  const double a = double(fs::file_size(small)), b = double(fs::file_size(large));
  EXPECT_LT(std::abs(b - a) / a, 0.05) << a << " vs " << b;
  // With the values the file does grow: the test above is not comparing two empty files.
  EXPECT_GT(fs::file_size(write(compacted(2490), "f2490.mtf.xml")),
            fs::file_size(write(compacted(249), "f249.mtf.xml")));
}

TEST_F(MtfXmlModel, WrittenFilesValidateWithXercesAndXmllint) {
  const fs::path schema = locateSchema();
  for (bool structureOnly : {false, true}) {
    const fs::path p = write(compacted(30), "v.mtf.xml", structureOnly);
    EXPECT_NO_THROW(validateAgainstSchema(p, schema));
    const std::string command =
        "xmllint --noout --schema '" + schema.string() + "' '" + p.string() + "' 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
    EXPECT_EQ(::pclose(pipe), 0) << output;
  }
}

// Each mutation breaks one rule of the schema; Xerces must refuse it naming line and column.
TEST_F(MtfXmlModel, SchemaBreakingFilesAreRefusedWithLineAndColumn) {
  const std::string good = slurp(write(compacted(10), "good.mtf.xml"));
  const std::vector<std::pair<std::regex, std::string>> mutations = {
      {std::regex("repetitions=\"[0-9]+\""), "repetitions=\"0\""},   // below minimum
      {std::regex("to=\"n[0-9]+\""), "to=\"n99999\""},               // dangling keyref
      {std::regex("kind=\"MpiSend\""), "kind=\"MpiSnd\""},           // not an event kind
      {std::regex("resolution=\"[0-9]+\""), "resolution=\"fast\""},  // not a number
      {std::regex(" events=\"[0-9]+\""), ""},                        // required attribute
      {std::regex("<Signatures>"), "<Signatures><Bogus/>"},          // unknown element
  };
  const fs::path schema = locateSchema();
  for (const auto& [pattern, replacement] : mutations) {
    const std::string bad =
        std::regex_replace(good, pattern, replacement, std::regex_constants::format_first_only);
    ASSERT_NE(bad, good);
    const fs::path p = file("bad.mtf.xml", bad);
    try {
      validateAgainstSchema(p, schema);
      ADD_FAILURE() << "accepted: " << replacement;
    } catch (const InputError& e) {
      EXPECT_EQ(e.code(), ExitCode::BadInput);
      EXPECT_TRUE(std::regex_search(e.what(),
                                    std::regex("bad\\.mtf\\.xml: line [1-9][0-9]*, column [1-9]")))
          << e.what();
    }
  }
}

TEST_F(MtfXmlModel, ValidatorRefusesDoctypeAndMissingSchema) {
  const fs::path p = file("d.mtf.xml",
                          "<?xml version=\"1.0\"?>\n<!DOCTYPE Scenario [<!ENTITY e "
                          "SYSTEM \"file:///etc/passwd\">]>\n<Scenario>&e;</Scenario>\n");
  EXPECT_THROW(validateAgainstSchema(p, locateSchema()), InputError);
  EXPECT_THROW(locateSchema(dir_ / "none.xsd"), IoError);
}

// Xerces-C is in a module loaded on demand: without it, validation names what is missing.
TEST_F(MtfXmlModel, ValidatorNamesAMissingOrBrokenModule) {
  const fs::path p = write(compacted(10), "m.mtf.xml");
  const fs::path schema = locateSchema();
  const fs::path absent = dir_ / "absent.so";
  try {
    validateAgainstSchema(p, schema, {absent});
    ADD_FAILURE() << "validated without a module";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("XSD validation module"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(absent.string()), std::string::npos) << e.what();
  }
  const fs::path broken = file("broken.so", "not a shared object\n");
  EXPECT_THROW(validateAgainstSchema(p, schema, {absent, broken}), IoError);
  // The first module that exists is the one used; the built one validates.
  const std::vector<fs::path> candidates = validatorModuleCandidates();
  ASSERT_FALSE(candidates.empty());
  std::vector<fs::path> withAbsentFirst{absent};
  withAbsentFirst.insert(withAbsentFirst.end(), candidates.begin(), candidates.end());
  EXPECT_NO_THROW(validateAgainstSchema(p, schema, withAbsentFirst));
}

// The reader does its own checks (it does not need the schema to stay safe).
TEST_F(MtfXmlModel, ReaderRefusesInconsistentDocuments) {
  // Chunks of 52 events: range coded (coding 7); of 8,192 and more: zstd (coding 5).
  const std::string good = slurp(write(compacted(10), "good.mtf.xml"));
  const std::string good5 = slurp(write(compacted(1700, 1 << 16), "good5.mtf.xml"));
  ASSERT_NE(good5.find("encoding=\"mtf-columns-5\""), std::string::npos);
  const std::vector<std::pair<std::regex, std::string>> mutations = {
      {std::regex("repetitions=\"[0-9]+\""), "repetitions=\"0\""},
      {std::regex("to=\"n[0-9]+\""), "to=\"n99999\""},
      {std::regex("kind=\"MpiSend\""), "kind=\"MpiSnd\""},
      {std::regex("formatVersion=\"1\""), "formatVersion=\"2\""},
      {std::regex("<Signatures>"), "<Signatures><Bogus/>"},
      {std::regex("events=\"[0-9]+\""), "events=\"12345678\""},
      {std::regex(">[A-Za-z0-9+/=]{8,}</Values>"), ">!!!!</Values>"},
      {std::regex("urn:mtf:xml:1"), "urn:other"},
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-8\""},
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-6\""},  // mismatch
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-5\""},  // mismatch
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-4\""},  // mismatch
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-3\""},  // mismatch
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-2\""},  // mismatch
      {std::regex("encoding=\"mtf-columns-7\""), "encoding=\"mtf-columns-1\""},  // mismatch
  };
  // Of the coding 5 document: a mismatch, and flags 1 (bytes 00 05 01): a chunk that
  // needs a column dictionary.
  for (const auto& [pattern, replacement] : std::vector<std::pair<std::regex, std::string>>{
           {std::regex("encoding=\"mtf-columns-5\""), "encoding=\"mtf-columns-7\""},
           {std::regex(">AAUA"), ">AAUB"}}) {
    const std::string bad =
        std::regex_replace(good5, pattern, replacement, std::regex_constants::format_first_only);
    ASSERT_NE(bad, good5) << replacement;
    EXPECT_THROW(readModelXml(file("bad5.mtf.xml", bad)), InputError) << replacement;
  }
  for (const auto& [pattern, replacement] : mutations) {
    const std::string bad =
        std::regex_replace(good, pattern, replacement, std::regex_constants::format_first_only);
    ASSERT_NE(bad, good) << replacement;
    EXPECT_THROW(readModelXml(file("bad.mtf.xml", bad)), InputError) << replacement;
  }
}

// XML has no column dictionary: the writer refuses a chunk that needs one.
TEST_F(MtfXmlModel, WriterRefusesChunksThatNeedADictionary) {
  CompactModel model = compacted(1700, 1 << 16);  // chunks of coding 5, which has flags
  std::vector<uint8_t>& encoded = model.locations.at(0).columns.at(0).encoded;
  ASSERT_EQ(std::string(valuesEncodingOf(encoded)), kValuesEncoding);
  EXPECT_NO_THROW(write(model, "plain.mtf.xml"));
  encoded.at(2) |= 1;
  EXPECT_THROW(write(model, "dictionary.mtf.xml"), std::logic_error);
}

// The schema's enumerations are the model's tables: a kind added to a .def file must be
// added to schema/mtf.xsd too.
TEST(MtfXmlSchema, EnumerationsMatchTheModelTables) {
  const std::string xsd = slurp(fs::path(MTF_SOURCE_DIR) / "schema" / "mtf.xsd");
  auto enumeration = [&](const std::string& type) {
    const size_t begin = xsd.find("<xs:simpleType name=\"" + type + "\">");
    const size_t end = xsd.find("</xs:simpleType>", begin);
    std::vector<std::string> names;
    const std::string body = xsd.substr(begin, end - begin);
    const std::regex value("value=\"([A-Za-z]+)\"");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), value);
         it != std::sregex_iterator(); ++it)
      names.push_back((*it)[1]);
    return names;
  };
  std::vector<std::string> events, defs;
  for (size_t k = 0; k < kEventKindCount; ++k)
    events.emplace_back(nameOf(static_cast<EventKind>(k)));
  for (size_t k = 0; k < kDefKindCount; ++k) defs.emplace_back(nameOf(static_cast<DefKind>(k)));
  EXPECT_EQ(enumeration("EventKindName"), events);
  EXPECT_EQ(enumeration("DefinitionKindName"), defs);
}

}  // namespace
}  // namespace mtf::xml
