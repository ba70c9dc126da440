#include "converters/otf2/otf2_event_reading.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "converters/otf2/otf2_common.hpp"

namespace mtf::otf2 {

namespace {

// Kept out of line: most events carry no attributes, and the hot path stays small.
[[gnu::noinline]] void copyAttributes(const OTF2_AttributeList* list, uint32_t count,
                                      std::vector<EventAttribute>& out) {
  for (uint32_t i = 0; i < count; ++i) {
    OTF2_AttributeRef ref;
    OTF2_Type type;
    OTF2_AttributeValue value;
    if (OTF2_AttributeList_GetAttributeByIndex(list, i, &ref, &type, &value) != OTF2_SUCCESS)
      continue;
    out.push_back({ref, type, valueBits(type, value)});
  }
}

// Removes the attribute `ref` from the event and returns its value; false if absent.
bool takeAttribute(Event& e, Ref ref, uint64_t& value) {
  if (ref == kUndefinedRef) return false;
  for (auto it = e.attributes.begin(); it != e.attributes.end(); ++it) {
    if (it->attribute != ref) continue;
    value = it->value;
    e.attributes.erase(it);
    return true;
  }
  return false;
}

// A ParameterUnsignedInt / ParameterInt written for a State / Generic (the convention of
// the OTF2 writer) becomes that event again.
void undoConvention(const EventReadState& s, Event& e) {
  uint64_t extra = 0;
  if (e.kind == EventKind::ParameterUnsignedInt && e.fields[0] == s.stateParameter &&
      takeAttribute(e, s.stateEndAttribute, extra)) {
    const uint64_t state = e.fields[1];
    e.kind = EventKind::State;
    e.fields.assign({extra, state});
  } else if (e.kind == EventKind::ParameterInt && e.fields[0] == s.genericParameter &&
             takeAttribute(e, s.genericTypeAttribute, extra)) {
    const uint64_t value = e.fields[1];
    e.kind = EventKind::Generic;
    e.fields.assign({extra, value});
  }
}

[[gnu::noinline]] OTF2_CallbackCode failed(EventReadState& s) {
  s.error = std::current_exception();
  return OTF2_CALLBACK_INTERRUPT;
}

[[gnu::always_inline]] inline void countDelivered(EventReadState& s) {
  ++s.delivered;
  if (s.progress) [[unlikely]]
    s.progress->tick(s.delivered);
}

// The event in the current slot (e) to the sink; a full batch goes on.
void handOn(EventReadState& s, Event& e) {
  if (!s.batcher)
    s.sink->event(e);
  else
    s.batcher->commit();
  countDelivered(s);
}

// The send the writer put before the Leave it followed goes back after it; a marked send
// that no such Leave follows (another writer's archive) stays where it is.
void deliverAroundLeave(EventReadState& s, Event& e) {
  if (s.sendHeld) {
    s.sendHeld = false;
    if (e.kind == EventKind::Leave && e.location == s.heldSend.location &&
        e.time == s.heldSend.time) {
      handOn(s, e);
      deliverEvent(s, s.heldSend);
      return;
    }
    std::swap(e, s.heldSend);  // the send into the slot, e kept
    handOn(s, e);
    Event& slot = s.batcher ? s.batcher->next() : s.single;
    slot = std::move(s.heldSend);
    return deliverAroundLeave(s, slot);  // it may be a marked send too
  }
  uint64_t marked = 0;
  if (e.kind == EventKind::MpiSend && takeAttribute(e, s.sendAfterLeaveAttribute, marked)) {
    s.heldSend = e;  // the slot is not committed: the next event reuses it
    s.sendHeld = true;
    return;
  }
  handOn(s, e);
}

// Every case but the common one (an event without attributes into a batch with room
// left): out of line, with the exception handling (the sink may throw).
[[gnu::noinline]] OTF2_CallbackCode deliverRare(EventReadState& s, Event& e,
                                                const OTF2_AttributeList* attributes,
                                                uint32_t count) {
  try {
    if (count != 0) copyAttributes(attributes, count, e.attributes);
    if (s.conventionInUse) undoConvention(s, e);
    if (s.sendAfterLeaveAttribute != kUndefinedRef) [[unlikely]]
      deliverAroundLeave(s, e);
    else
      handOn(s, e);  // a full batch goes to the sink
  } catch (...) {
    return failed(s);
  }
  return OTF2_CALLBACK_SUCCESS;
}

// Inline in every callback: the common case is a few instructions and no call of ours.
[[gnu::always_inline]] inline OTF2_CallbackCode deliver(EventReadState& s, Event& e,
                                                        const OTF2_AttributeList* attributes) {
  if (!e.attributes.empty()) e.attributes.clear();
  const uint32_t count = attributes ? OTF2_AttributeList_GetNumberOfElements(attributes) : 0;
  if (count != 0 || s.conventionInUse || !s.batcher || !s.batcher->commitIfRoom()) [[unlikely]]
    return deliverRare(s, e, attributes, count);
  countDelivered(s);
  return OTF2_CALLBACK_SUCCESS;
}

// Fields past FieldList::kInline (none of the plain events has more): on the heap, made
// once per slot, which keeps its capacity.
[[gnu::noinline]] void makeRoom(FieldList& fields, size_t count) {
  fields.reserve(count);
}

// push_back where there is room (makeRoom, or within the inline fields): telling the
// compiler so leaves the growth path out of every callback.
[[gnu::always_inline]] inline void appendWithinCapacity(FieldList& fields, uint64_t value) {
  if (fields.size() == fields.capacity()) __builtin_unreachable();
  fields.push_back(value);
}

// The event to fill: the next slot of a batch, or the one single event.
[[gnu::always_inline]] inline Event& start(EventReadState& s, EventKind kind,
                                           OTF2_LocationRef location, OTF2_TimeStamp time) {
  Event& e = s.batcher ? s.batcher->next() : s.single;
  e.kind = kind;
  e.location = location;
  e.time = time;
  e.fields.clear();
  return e;
}

// The common case: the callback's arguments are the event's fields, in order.
template <EventKind Kind, typename... Args>
[[gnu::flatten]] OTF2_CallbackCode onEvent(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t,
                                           void* user, OTF2_AttributeList* attributes,
                                           Args... args) {
  EventReadState& s = *static_cast<EventReadState*>(user);
  Event& e = start(s, Kind, location, time);
  if constexpr (sizeof...(Args) > FieldList::kInline)
    if (e.fields.capacity() < sizeof...(Args)) [[unlikely]]
      makeRoom(e.fields, sizeof...(Args));
  (appendWithinCapacity(e.fields, fieldBits(args)), ...);
  return deliver(s, e, attributes);
}

template <EventKind Kind, typename... Args>
void bind(OTF2_ErrorCode (*setter)(OTF2_EvtReaderCallbacks*,
                                   OTF2_CallbackCode (*)(OTF2_LocationRef, OTF2_TimeStamp, uint64_t,
                                                         void*, OTF2_AttributeList*, Args...)),
          OTF2_EvtReaderCallbacks* callbacks) {
  setter(callbacks, &onEvent<Kind, Args...>);
}

OTF2_CallbackCode onMetric(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t, void* user,
                           OTF2_AttributeList* attributes, OTF2_MetricRef metric, uint8_t count,
                           const OTF2_Type* types, const OTF2_MetricValue* values) {
  EventReadState& s = *static_cast<EventReadState*>(user);
  Event& e = start(s, EventKind::Metric, location, time);
  e.fields.push_back(metric);
  e.fields.push_back(count);
  for (uint8_t i = 0; i < count; ++i) {
    uint64_t bits;
    static_assert(sizeof(OTF2_MetricValue) == sizeof bits);
    std::memcpy(&bits, &values[i], sizeof bits);
    e.fields.push_back(types[i]);
    e.fields.push_back(bits);
  }
  return deliver(s, e, attributes);
}

OTF2_CallbackCode onProgramBegin(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t,
                                 void* user, OTF2_AttributeList* attributes, OTF2_StringRef name,
                                 uint32_t argc, const OTF2_StringRef* argv) {
  EventReadState& s = *static_cast<EventReadState*>(user);
  Event& e = start(s, EventKind::ProgramBegin, location, time);
  e.fields.push_back(name);
  e.fields.push_back(argc);
  for (uint32_t i = 0; i < argc; ++i) e.fields.push_back(argv[i]);
  return deliver(s, e, attributes);
}

OTF2_CallbackCode onUnknown(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* user,
                            OTF2_AttributeList*) {
  ++static_cast<EventReadState*>(user)->unknownRecords;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onStateEnter(OTF2_LocationRef, OTF2_TimeStamp time, uint64_t, void* user,
                               OTF2_AttributeList* attributes, OTF2_RegionRef region) {
  StateHold& h = *static_cast<StateHold*>(user);
  Event& e = h.event;
  e.kind = EventKind::State;
  e.location = h.owner;
  e.time = time;
  e.fields.clear();
  e.attributes.clear();
  const uint32_t count = attributes ? OTF2_AttributeList_GetNumberOfElements(attributes) : 0;
  if (count != 0) copyAttributes(attributes, count, e.attributes);
  const auto state = h.stateOfRegion->find(region);
  uint64_t end = 0, position = 0;
  if (state == h.stateOfRegion->end() || !takeAttribute(e, h.endAttribute, end) ||
      !takeAttribute(e, h.positionAttribute, position)) {
    ++h.ignored;
    return OTF2_CALLBACK_SUCCESS;
  }
  e.fields.assign({end, state->second});
  h.position = position;
  h.held = true;
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

void registerStateCallbacks(OTF2_EvtReaderCallbacks* c) {
  OTF2_EvtReaderCallbacks_SetEnterCallback(c, &onStateEnter);
}

void deliverHeldSend(EventReadState& s) {
  if (!s.sendHeld) return;
  s.sendHeld = false;
  deliverEvent(s, s.heldSend);
}

void deliverEvent(EventReadState& s, const Event& e) {
  deliverHeldSend(s);
  Event& slot = s.batcher ? s.batcher->next() : s.single;
  slot = e;
  handOn(s, slot);
}

void registerEventCallbacks(OTF2_EvtReaderCallbacks* c) {
  OTF2_EvtReaderCallbacks_SetUnknownCallback(c, &onUnknown);
  OTF2_EvtReaderCallbacks_SetMetricCallback(c, &onMetric);
  OTF2_EvtReaderCallbacks_SetProgramBeginCallback(c, &onProgramBegin);
  // Every other OTF2 event: one template serves them all.
#define MTF_OTF2_EVENT(kind) bind<EventKind::kind>(&OTF2_EvtReaderCallbacks_Set##kind##Callback, c);
#include "converters/otf2/otf2_plain_events.def"
#undef MTF_OTF2_EVENT
}

}  // namespace mtf::otf2
