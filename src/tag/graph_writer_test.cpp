#include "tag/graph_writer.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "tag/tag_builder.hpp"
#include "tag/test_trace.hpp"

namespace mtf::tag {
namespace {

using testing::SmallTrace;

ActivityGraph pingPong() {
  SmallTrace t(2, 1'000'000);  // microsecond ticks
  t.enter(0, 0, t.main);
  t.sendCall(0, 10, 1, 4, 512);
  t.recvCall(0, 20, 1, 4, 512);
  t.leave(0, 30, t.main);
  t.enter(1, 0, t.main);
  t.recvCall(1, 10, 0, 4, 512);
  t.sendCall(1, 20, 0, 4, 512);
  t.leave(1, 30, t.main);
  TagBuilder b;
  t.feed(b);
  return std::move(b.graph());
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(GraphWriter, GraphmlDeclaresTypedKeysAndWritesProfilesInNanoseconds) {
  const ActivityGraph g = pingPong();
  std::ostringstream out;
  writeGraphml(out, g, buildPtag(g, false), {});
  const std::string xml = out.str();
  EXPECT_NE(xml.find("<key id=\"n_count\" for=\"node\" attr.name=\"count\" attr.type=\"long\"/>"),
            std::string::npos);
  EXPECT_NE(xml.find("attr.name=\"stddev_ns\" attr.type=\"double\""), std::string::npos);
  EXPECT_EQ(occurrences(xml, "<node "), 8u);
  EXPECT_EQ(occurrences(xml, "<data key=\"e_kind\">message</data>"), 2u);
  EXPECT_EQ(occurrences(xml, "<data key=\"e_bytes\">512</data>"), 2u);
  // A 2-tick MPI_Send at 1 MHz: 2000 ns.
  EXPECT_NE(xml.find("<data key=\"n_total_ns\">2000</data>"), std::string::npos);
  EXPECT_EQ(occurrences(xml, "<graph "), 1u);
}

TEST(GraphWriter, PerProcessWritesOneGraphPerLocation) {
  const ActivityGraph g = pingPong();
  std::ostringstream out;
  writeGraphml(out, g, buildPtag(g, false), {true});
  EXPECT_EQ(occurrences(out.str(), "<graph "), 2u);
  EXPECT_EQ(occurrences(out.str(), "<node id=\"n"), 8u);
  // Each process receives one message: its sender's node appears once as a remote node.
  EXPECT_EQ(occurrences(out.str(), "<data key=\"n_kind\">remote</data>"), 2u);
  EXPECT_EQ(occurrences(out.str(), "<edge source=\"r"), 2u);
}

TEST(GraphWriter, NamesAreEscaped) {
  SmallTrace t(1);
  DefinitionBuilder b(t.defs);
  const Ref odd = b.region("a<b>&\"c\"", RegionRole::Function, Paradigm::User);
  t.enter(0, 0, odd);
  t.sendCall(0, 1, 0, 1, 8);
  t.leave(0, 5, odd);
  TagBuilder builder;
  t.feed(builder);
  std::ostringstream xml, dot;
  writeGraphml(xml, builder.graph(), buildPtag(builder.graph(), true), {});
  EXPECT_NE(xml.str().find("a&lt;b&gt;&amp;&quot;c&quot;/MPI_Send"), std::string::npos);
  writeDot(dot, builder.graph(), buildPtag(builder.graph(), true), {});
  EXPECT_NE(dot.str().find("a<b>&\\\"c\\\"/MPI_Send"), std::string::npos);
  EXPECT_EQ(dot.str().rfind("digraph ptag {", 0), 0u);
}

}  // namespace
}  // namespace mtf::tag
