#include "model/schema.hpp"

#include <gtest/gtest.h>

#include "model/event.hpp"

namespace mtf {
namespace {

TEST(Schema, ParsesFixedAndRepeatedFields) {
  const KindSchema s = parseKindSchema("Metric", "metric:metric count:u8 *type:u8 *value:u64");
  ASSERT_EQ(s.fields.size(), 4u);
  EXPECT_EQ(s.fixedCount, 2u);
  EXPECT_EQ(s.groupSize, 2u);
  EXPECT_EQ(s.fields[0].type, FieldType::Ref);
  EXPECT_EQ(s.fields[0].refKind, "metric");
  EXPECT_TRUE(s.fields[3].repeated);
  EXPECT_EQ(s.indexOf("count"), 1);
  EXPECT_EQ(s.indexOf("nope"), -1);
}

TEST(Schema, RejectsFixedFieldAfterGroup) {
  EXPECT_THROW(parseKindSchema("Bad", "*a:u8 b:u8"), std::logic_error);
  EXPECT_THROW(parseKindSchema("Bad", "nocolon"), std::logic_error);
}

TEST(EventKinds, TableMatchesEnum) {
  EXPECT_EQ(nameOf(EventKind::MpiIsend), "MpiIsend");
  EXPECT_EQ(schemaOf(EventKind::MpiIsend).fields.size(), 5u);
  EXPECT_EQ(schemaOf(EventKind::MpiSend).fields[0].type, FieldType::Rank);
  EventKind k{};
  ASSERT_TRUE(eventKindFromName("CommDestroy", k));
  EXPECT_EQ(k, EventKind::CommDestroy);
  EXPECT_FALSE(eventKindFromName("NoSuchKind", k));
}

TEST(Event, FieldByName) {
  Event e;
  e.set(EventKind::MpiSend, 7, 100, {1, 0, 42, 4096});
  EXPECT_EQ(e.field("tag"), 42u);
  EXPECT_EQ(e.field("length"), 4096u);
  EXPECT_THROW(e.field("request"), std::out_of_range);
}

}  // namespace
}  // namespace mtf
