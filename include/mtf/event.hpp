// mtf public API: one event as an analyzer sees it. The common fields (region, partner,
// tag, size, communicator) are decoded for the kinds that have them; every kind's own
// fields are in `fields`, in the order eventFieldNames(kind) gives.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mtf/definitions.hpp"

namespace mtf::api {

using EventKindId = uint16_t;

// The number of event kinds, and each kind's name ("Enter", "MpiSend", ...). The kinds
// are those of OTF2 3.0 in OTF2's order, then "State" and "Generic" (records of Paraver
// and TAU the model keeps as they are).
size_t eventKindCount();
std::string_view eventKindName(EventKindId kind);
// The kind called `name`; throws Error (usage) if there is none.
EventKindId eventKindByName(std::string_view name);
// The names of the kind's fields, in the order of Event::fields.
std::vector<std::string> eventFieldNames(EventKindId kind);

struct Event {
  LocationId location = 0;
  Tick time = 0;  // ticks (Definitions::resolution per second)
  EventKindId kind = 0;
  // Enter, Leave: the region; otherwise kNoRef.
  uint32_t region = kNoRef;
  // Point-to-point messages: the peer's MPI world rank (receiver of a send, sender of a
  // receive); collectives: the root's world rank if there is one; otherwise -1.
  int64_t partner = -1;
  // Point-to-point messages: the tag; otherwise -1.
  int64_t tag = -1;
  // Point-to-point messages: the bytes of the message; collectives: the bytes sent.
  uint64_t size = 0;
  // Messages and collectives: the communicator; otherwise kNoRef.
  uint32_t comm = kNoRef;
  // The kind's fields as stored (signed values and doubles as their bit patterns); valid
  // only during the callback that receives the event.
  std::span<const uint64_t> fields;
};

// Events as columns, a block at a time (Trace::eventRows): row i of every column is one
// event, with the values Event has (its `fields` aside). Rows [0, count) are valid, only
// during the callback that receives them.
struct EventRows {
  size_t count = 0;
  std::vector<LocationId> location;
  std::vector<Tick> time;
  std::vector<EventKindId> kind;
  std::vector<uint32_t> region;
  std::vector<int64_t> partner;
  std::vector<int64_t> tag;
  std::vector<uint64_t> size;
  std::vector<uint32_t> comm;
};

// Which events to read. Empty `locations` means every location; the window is inclusive.
// On an .mtf archive only the chunks of the asked locations and window are read (through
// the archive's index); on OTF2 only the asked locations' event files; Paraver and TAU
// are read whole and filtered.
struct EventFilter {
  std::vector<LocationId> locations;
  Tick from = 0;
  Tick to = ~Tick{0};
};

}  // namespace mtf::api
