#include "model/text_dump.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mtf {
namespace {

TEST(TextDump, EventLineNamesRegionsAndAttributes) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const Ref r = b.region("main", RegionRole::Function, Paradigm::User);
  Event e;
  e.set(EventKind::Enter, 3, 1500, {r});
  EXPECT_EQ(formatEvent(e, defs), "L3 1500 Enter region=0(\"main\")");
  e.attributes.push_back({2, 4, 99});
  EXPECT_EQ(formatEvent(e, defs), "L3 1500 Enter region=0(\"main\") | attr2:4=99");
}

TEST(TextDump, RepeatedGroupAndSignedValues) {
  Definitions defs;
  Event e;
  e.set(EventKind::Metric, 0, 5, {7, 2, 1, 10, 2, bitsOf(-3.5)});
  EXPECT_EQ(formatEvent(e, defs), "L0 5 Metric metric=7 count=2 type=1 value=10 type=2 value=" +
                                      std::to_string(bitsOf(-3.5)));
  e.set(EventKind::ProgramEnd, 0, 9, {bitsOf(int64_t{-1})});
  EXPECT_EQ(formatEvent(e, defs), "L0 9 ProgramEnd exitStatus=-1");
}

TEST(TextDump, SinkWritesDefinitionsThenEvents) {
  Definitions defs;
  DefinitionBuilder b(defs);
  b.string("a\"b");
  std::ostringstream out;
  TextDumpSink sink(out);
  sink.begin(defs);
  Event e;
  e.set(EventKind::MpiCollectiveBegin, 1, 2, {});
  sink.event(e);
  sink.end();
  EXPECT_EQ(out.str(),
            "# format \nClockProperties resolution=1000000000 offset=0 length=0\n"
            "String self=0 text=\"a\\\"b\"\n# events\nL1 2 MpiCollectiveBegin\n");
}

}  // namespace
}  // namespace mtf
