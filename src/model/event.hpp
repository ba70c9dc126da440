// The unified event: one record of one location's stream, any kind.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "model/field_list.hpp"
#include "model/schema.hpp"
#include "model/types.hpp"

namespace mtf {

enum class EventKind : uint16_t {
#define MTF_EVENT(name, spec) name,
#include "model/event_kinds.def"
#undef MTF_EVENT
  Count
};

inline constexpr size_t kEventKindCount = static_cast<size_t>(EventKind::Count);

const KindSchema& schemaOf(EventKind kind);
std::string_view nameOf(EventKind kind);
// The kind called `name` (as in event_kinds.def); false if there is none.
bool eventKindFromName(std::string_view name, EventKind& kind);

// An attribute attached to an event (OTF2 attribute list entry).
struct EventAttribute {
  Ref attribute = kUndefinedRef;
  uint8_t type = 0;  // OTF2_Type
  uint64_t value = 0;
  bool operator==(const EventAttribute&) const = default;
};

// Fields are stored as uint64_t in the order of the kind's schema; signed values and
// doubles as their bit patterns, inside the event up to FieldList::kInline of them.
// Readers reuse one Event, so a sink that keeps an event must copy it.
struct Event {
  EventKind kind = EventKind::Enter;
  LocationId location = 0;
  Tick time = 0;
  FieldList fields;
  std::vector<EventAttribute> attributes;

  uint64_t field(size_t i) const { return fields[i]; }
  // Value of the field called `name` (slow path: looks the name up in the schema).
  uint64_t field(std::string_view name) const;
  void set(EventKind k, LocationId loc, Tick t, std::initializer_list<uint64_t> values);
  bool operator==(const Event&) const = default;
};

// The value of `attribute` on `e` into `value`; false if `e` has none (or the ref is undefined).
bool attributeValue(const Event& e, Ref attribute, uint64_t& value);

inline constexpr bool isMpiPointToPoint(EventKind k) {
  return k == EventKind::MpiSend || k == EventKind::MpiIsend || k == EventKind::MpiRecv ||
         k == EventKind::MpiIrecv;
}
inline constexpr bool isSend(EventKind k) {
  return k == EventKind::MpiSend || k == EventKind::MpiIsend;
}
inline constexpr bool isRecv(EventKind k) {
  return k == EventKind::MpiRecv || k == EventKind::MpiIrecv;
}

}  // namespace mtf
