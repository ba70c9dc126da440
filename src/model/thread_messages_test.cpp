#include "model/thread_messages.hpp"

#include <gtest/gtest.h>

namespace mtf {
namespace {

Definitions withAttributes(bool threadMessages) {
  Definitions defs;
  DefinitionBuilder b(defs);
  const auto attribute = [&](Ref id, std::string_view name) {
    defs.add({DefKind::Attribute, {id, b.string(name), b.string(""), 4}, {}});
  };
  attribute(0, "paraver:cpu");
  if (threadMessages) {
    attribute(7, kPeerThreadAttribute);
    attribute(8, kMessageIdAttribute);
  }
  return defs;
}

Event message(EventKind kind, std::vector<EventAttribute> attributes) {
  Event e;
  e.set(kind, 3, 100, {0, 0, 5, 64});
  e.attributes = std::move(attributes);
  return e;
}

TEST(ThreadMessages, AttributesAreFoundByName) {
  const Definitions defs = withAttributes(true);
  EXPECT_EQ(findAttributeNamed(defs, kMessageIdAttribute), 8u);
  EXPECT_EQ(findAttributeNamed(defs, "nothing"), kUndefinedRef);
  const ThreadMessageAttributes attributes(defs);
  EXPECT_TRUE(attributes.declared());
  EXPECT_FALSE(ThreadMessageAttributes(withAttributes(false)).declared());
  uint64_t value = 0;
  const Event e = message(EventKind::MpiSend, {{0, 4, 9}, {7, 4, 12}});
  EXPECT_TRUE(attributes.peerOf(e, value));
  EXPECT_EQ(value, 12u);
  EXPECT_FALSE(attributes.idOf(e, value));
}

TEST(ThreadMessages, LossesCountMessageEventsCarryingEither) {
  ThreadMessageLosses losses;
  losses.begin(withAttributes(true));
  losses.event(message(EventKind::MpiSend, {{7, 4, 12}, {8, 4, 1}}));
  losses.event(message(EventKind::MpiRecv, {{8, 4, 1}}));
  losses.event(message(EventKind::MpiRecv, {{0, 4, 2}}));
  Event enter;
  enter.set(EventKind::Enter, 3, 100, {0});
  enter.attributes = {{7, 4, 12}};
  losses.event(enter);  // not a message: not counted
  LossReport report;
  losses.report(report, "peers", "ids");
  EXPECT_EQ(report, (LossReport{{"peers", 1}, {"ids", 2}}));
  ThreadMessageLosses undeclared;
  undeclared.begin(withAttributes(false));
  undeclared.event(message(EventKind::MpiSend, {{7, 4, 12}}));
  LossReport none;
  undeclared.report(none, "peers", "ids");
  EXPECT_TRUE(none.empty());
}

}  // namespace
}  // namespace mtf
