#include "converters/mtf/xml/xml_io.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::xml {
namespace {

class XmlIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mtf_xml_io_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  fs::path dir_;
};

TEST_F(XmlIo, WrittenTextAndAttributesReadBackUnchanged) {
  const fs::path p = dir_ / "a.xml";
  const std::string tricky = "  a < b && c > \"d\" 'e'\n\tend  ";
  {
    XmlWriter w(p);
    w.startDocument();
    w.startElement("Root");
    w.namespaceDeclaration("urn:test");
    w.attribute("text", tricky);
    w.attribute("number", uint64_t{18446744073709551615u});
    w.startElement("Child");
    w.text(tricky);
    w.endElement();
    w.startElement("Blank");
    w.text("   ");
    w.endElement();
    w.endElement();
    w.finish();
  }
  XmlReader r(p, 10);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.name(), "Root");
  EXPECT_EQ(r.namespaceUri(), "urn:test");
  EXPECT_EQ(r.attribute("text").value(), tricky);
  EXPECT_EQ(r.attribute("number").value(), "18446744073709551615");
  EXPECT_FALSE(r.attribute("missing").has_value());
  while (r.next() && !(r.type() == NodeType::StartElement && r.name() == "Child")) {
  }
  EXPECT_EQ(r.elementText(), tricky);
  while (r.next() && !(r.type() == NodeType::StartElement && r.name() == "Blank")) {
  }
  EXPECT_EQ(r.elementText(), "   ");
}

TEST_F(XmlIo, TextNodesLargerThanTenMegabytesRead) {
  const fs::path p = dir_ / "big.xml";
  const std::string big(11u << 20, 'A');
  {
    XmlWriter w(p);
    w.startDocument();
    w.startElement("Big");
    w.text(big);
    w.endElement();
    w.finish();
  }
  XmlReader r(p, 10);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.elementText().size(), big.size());
}

TEST_F(XmlIo, RootMustStartEarly) {
  EXPECT_THROW(XmlReader(file("late.xml", "<!--" + std::string(70000, 'x') + "--><a/>"), 10),
               InputError);
  EXPECT_THROW(XmlReader(file("empty.xml", ""), 10), InputError);
}

TEST_F(XmlIo, UnwritablePathIsAnIoError) {
  EXPECT_THROW(XmlWriter(dir_ / "missing" / "x.xml"), IoError);
}

TEST_F(XmlIo, MalformedXmlNamesTheLine) {
  const fs::path p = file("bad.xml", "<?xml version=\"1.0\"?>\n<a>\n<b>\n</a>\n");
  XmlReader r(p, 10);
  try {
    while (r.next()) {
    }
    FAIL() << "malformed XML accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
  }
}

TEST_F(XmlIo, DoctypeAndEntitiesAreRefused) {
  // The billion-laughs shape: refused before any entity is expanded.
  const fs::path laughs = file("laughs.xml",
                               "<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY l \"lol\">"
                               "<!ENTITY l2 \"&l;&l;&l;&l;&l;&l;&l;&l;&l;&l;\">]>\n<a>&l2;</a>\n");
  EXPECT_THROW(XmlReader(laughs, 10), InputError);
  const fs::path external =
      file("external.xml", "<!-- c --><!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>");
  EXPECT_THROW(XmlReader(external, 10), InputError);
}

TEST_F(XmlIo, DepthIsBounded) {
  std::string deep;
  for (int i = 0; i < 50; ++i) deep += "<a>";
  for (int i = 0; i < 50; ++i) deep += "</a>";
  XmlReader shallowLimit(file("deep.xml", deep), 20);
  EXPECT_THROW(
      {
        while (shallowLimit.next()) {
        }
      },
      InputError);
  XmlReader enough(dir_ / "deep.xml", 60);
  int elements = 0;
  while (enough.next()) elements += enough.type() == NodeType::StartElement;
  EXPECT_EQ(elements, 50);
}

TEST_F(XmlIo, PrologScanFindsRootAndDoctype) {
  Prolog p = scanProlog(file("p.xml",
                             "\xEF\xBB\xBF<?xml version=\"1.0\"?><!-- <x> -->\n"
                             "<?pi <y>?><m:Scenario xmlns:m=\"urn:x\">"));
  EXPECT_TRUE(p.wellFormedStart);
  EXPECT_FALSE(p.hasDoctype);
  EXPECT_EQ(p.rootName, "m:Scenario");
  EXPECT_NE(p.rootAttributes.find("urn:x"), std::string::npos);
  EXPECT_TRUE(scanProlog(file("d.xml", "<!DOCTYPE x><x/>")).hasDoctype);
  EXPECT_FALSE(scanProlog(file("n.xml", "not xml at all")).wellFormedStart);
  EXPECT_FALSE(scanProlog(dir_ / "absent.xml").wellFormedStart);
}

}  // namespace
}  // namespace mtf::xml
