#include "model/event.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace mtf {

namespace {

struct EventTable {
  std::array<KindSchema, kEventKindCount> schemas;
  EventTable() {
    size_t i = 0;
#define MTF_EVENT(name, spec) schemas[i++] = parseKindSchema(#name, spec);
#include "model/event_kinds.def"
#undef MTF_EVENT
  }
};

const EventTable& table() {
  static const EventTable instance;
  return instance;
}

}  // namespace

const KindSchema& schemaOf(EventKind kind) {
  return table().schemas.at(static_cast<size_t>(kind));
}

std::string_view nameOf(EventKind kind) {
  return schemaOf(kind).name;
}

bool eventKindFromName(std::string_view name, EventKind& kind) {
  for (size_t i = 0; i < kEventKindCount; ++i) {
    if (table().schemas[i].name == name) {
      kind = static_cast<EventKind>(i);
      return true;
    }
  }
  return false;
}

uint64_t Event::field(std::string_view name) const {
  const int i = schemaOf(kind).indexOf(name);
  if (i < 0 || static_cast<size_t>(i) >= fields.size())
    throw std::out_of_range("event " + std::string(nameOf(kind)) + " has no field " +
                            std::string(name));
  return fields[static_cast<size_t>(i)];
}

bool attributeValue(const Event& e, Ref attribute, uint64_t& value) {
  if (attribute == kUndefinedRef) return false;
  for (const EventAttribute& a : e.attributes) {
    if (a.attribute == attribute) {
      value = a.value;
      return true;
    }
  }
  return false;
}

void Event::set(EventKind k, LocationId loc, Tick t, std::initializer_list<uint64_t> values) {
  kind = k;
  location = loc;
  time = t;
  fields.assign(values);
  attributes.clear();
}

}  // namespace mtf
