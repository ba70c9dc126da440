#include "converters/otf2/otf2_def_reading.hpp"

#include <type_traits>

#include "converters/otf2/otf2_common.hpp"

namespace mtf::otf2 {

namespace {

using otf2::appendField;  // the plain-value overload, beside the one below

// An "any" value always follows its type field (definition_kinds.def).
void appendField(std::vector<uint64_t>& fields, OTF2_AttributeValue value) {
  fields.push_back(valueBits(static_cast<OTF2_Type>(fields.back()), value));
}

// Runs `body` and turns an exception into an interrupted read (never through C code).
template <typename Body>
OTF2_CallbackCode guarded(void* user, Body&& body) {
  auto& state = *static_cast<DefReadState*>(user);
  try {
    body(state);
    return OTF2_CALLBACK_SUCCESS;
  } catch (...) {
    state.error = std::current_exception();
    return OTF2_CALLBACK_INTERRUPT;
  }
}

// The common case: the callback's arguments are the record's fields, in order.
template <DefKind Kind, typename... Args>
OTF2_CallbackCode onDefinition(void* user, Args... args) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord record;
    record.kind = Kind;
    record.fields.reserve(sizeof...(Args));
    (appendField(record.fields, args), ...);
    state.defs->add(std::move(record));
  });
}

template <DefKind Kind, typename... Args>
void bind(OTF2_ErrorCode (*setter)(OTF2_GlobalDefReaderCallbacks*,
                                   OTF2_CallbackCode (*)(void*, Args...)),
          OTF2_GlobalDefReaderCallbacks* callbacks) {
  setter(callbacks, &onDefinition<Kind, Args...>);
}

OTF2_CallbackCode onUnknown(void* user) {
  ++static_cast<DefReadState*>(user)->unknownRecords;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onClock(void* user, uint64_t resolution, uint64_t offset, uint64_t length,
                          uint64_t realtime) {
  auto& state = *static_cast<DefReadState*>(user);
  state.defs->clock = {resolution, offset, length, realtime};
  state.sawClockProperties = true;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onString(void* user, OTF2_StringRef self, const char* text) {
  return guarded(user, [&](DefReadState& state) {
    state.defs->add({DefKind::String, {self}, text ? std::string(text) : std::string()});
  });
}

OTF2_CallbackCode onIoParadigm(void* user, OTF2_IoParadigmRef self, OTF2_StringRef identification,
                               OTF2_StringRef name, OTF2_IoParadigmClass paradigmClass,
                               OTF2_IoParadigmFlag flags, uint8_t count,
                               const OTF2_IoParadigmProperty* properties, const OTF2_Type* types,
                               const OTF2_AttributeValue* values) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord r{DefKind::IoParadigm, {self, identification, name, paradigmClass, flags, count}, {}};
    for (uint8_t i = 0; i < count; ++i) {
      r.fields.push_back(properties[i]);
      r.fields.push_back(types[i]);
      r.fields.push_back(valueBits(types[i], values[i]));
    }
    state.defs->add(std::move(r));
  });
}

OTF2_CallbackCode onGroup(void* user, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                          OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t count,
                          const uint64_t* members) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord r{DefKind::Group, {self, name, type, paradigm, flags, count}, {}};
    r.fields.insert(r.fields.end(), members, members + count);
    state.defs->add(std::move(r));
  });
}

OTF2_CallbackCode onMetricClass(void* user, OTF2_MetricRef self, uint8_t count,
                                const OTF2_MetricMemberRef* members,
                                OTF2_MetricOccurrence occurrence, OTF2_RecorderKind recorderKind) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord r{DefKind::MetricClass, {self, occurrence, recorderKind, count}, {}};
    r.fields.insert(r.fields.end(), members, members + count);
    state.defs->add(std::move(r));
  });
}

OTF2_CallbackCode onCartTopology(void* user, OTF2_CartTopologyRef self, OTF2_StringRef name,
                                 OTF2_CommRef comm, uint8_t count,
                                 const OTF2_CartDimensionRef* dimensions) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord r{DefKind::CartTopology, {self, name, comm, count}, {}};
    r.fields.insert(r.fields.end(), dimensions, dimensions + count);
    state.defs->add(std::move(r));
  });
}

OTF2_CallbackCode onCartCoordinate(void* user, OTF2_CartTopologyRef topology, uint32_t rank,
                                   uint8_t count, const uint32_t* coordinates) {
  return guarded(user, [&](DefReadState& state) {
    DefRecord r{DefKind::CartCoordinate, {topology, rank, count}, {}};
    r.fields.insert(r.fields.end(), coordinates, coordinates + count);
    state.defs->add(std::move(r));
  });
}

void registerSpecialCallbacks(OTF2_GlobalDefReaderCallbacks* c) {
  OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(c, &onUnknown);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(c, &onClock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(c, &onString);
  OTF2_GlobalDefReaderCallbacks_SetIoParadigmCallback(c, &onIoParadigm);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(c, &onGroup);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(c, &onMetricClass);
  OTF2_GlobalDefReaderCallbacks_SetCartTopologyCallback(c, &onCartTopology);
  OTF2_GlobalDefReaderCallbacks_SetCartCoordinateCallback(c, &onCartCoordinate);
}

}  // namespace

void registerDefinitionCallbacks(OTF2_GlobalDefReaderCallbacks* c) {
  registerSpecialCallbacks(c);
#define MTF_OTF2_DEF(kind) \
  bind<DefKind::kind>(&OTF2_GlobalDefReaderCallbacks_Set##kind##Callback, c);
#include "converters/otf2/otf2_plain_definitions.def"
#undef MTF_OTF2_DEF
}

}  // namespace mtf::otf2
