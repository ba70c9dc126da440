// Baseline for the OTF2 reader benchmark: reads every event of an OTF2 archive through
// the OTF2 library with an empty callback for every event kind, doing nothing else.
// Usage: otf2_bare_read [--no-mappings] ANCHOR.otf2   (prints the number of events read)
// --no-mappings: the library does not apply mapping tables and clock offsets (what mtf's
// reader does for a location that has none; the library default applies them).
#include <otf2/otf2.h>

#include <cstdio>
#include <string_view>
#include <vector>

namespace {

std::vector<OTF2_LocationRef> locations;
bool applyMappings = true;

OTF2_CallbackCode onLocation(void*, OTF2_LocationRef self, OTF2_StringRef, OTF2_LocationType,
                             uint64_t, OTF2_LocationGroupRef) {
  locations.push_back(self);
  return OTF2_CALLBACK_SUCCESS;
}

template <typename... Args>
OTF2_CallbackCode ignore(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void*, OTF2_AttributeList*,
                         Args...) {
  return OTF2_CALLBACK_SUCCESS;
}

template <typename... Args>
void setEmpty(OTF2_ErrorCode (*setter)(OTF2_EvtReaderCallbacks*,
                                       OTF2_CallbackCode (*)(OTF2_LocationRef, OTF2_TimeStamp,
                                                             uint64_t, void*, OTF2_AttributeList*,
                                                             Args...)),
              OTF2_EvtReaderCallbacks* callbacks) {
  setter(callbacks, &ignore<Args...>);
}

void setAllEmpty(OTF2_EvtReaderCallbacks* c) {
#define MTF_OTF2_EVENT(kind) setEmpty(&OTF2_EvtReaderCallbacks_Set##kind##Callback, c);
#include "converters/otf2/otf2_plain_events.def"  // the list of kinds only
  MTF_OTF2_EVENT(Unknown)
  MTF_OTF2_EVENT(Metric)
  MTF_OTF2_EVENT(ProgramBegin)
#undef MTF_OTF2_EVENT
}

bool readDefinitions(OTF2_Reader* reader) {
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (!defs) return false;
  OTF2_GlobalDefReaderCallbacks* callbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(callbacks, &onLocation);
  OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, callbacks, nullptr);
  uint64_t n = 0;
  const bool ok = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &n) == OTF2_SUCCESS;
  OTF2_GlobalDefReaderCallbacks_Delete(callbacks);
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
  return ok;
}

// Like the mtf reader (and otf2-print): local definitions first, then the events.
uint64_t readEvents(OTF2_Reader* reader) {
  for (OTF2_LocationRef l : locations) OTF2_Reader_SelectLocation(reader, l);
  if (OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS) {
    for (OTF2_LocationRef l : locations) {
      OTF2_DefReader* d = OTF2_Reader_GetDefReader(reader, l);
      uint64_t n = 0;
      if (d) OTF2_Reader_ReadAllLocalDefinitions(reader, d, &n);
      if (d) OTF2_Reader_CloseDefReader(reader, d);
    }
    OTF2_Reader_CloseDefFiles(reader);
  }
  OTF2_EvtReaderCallbacks* callbacks = OTF2_EvtReaderCallbacks_New();
  setAllEmpty(callbacks);
  OTF2_Reader_OpenEvtFiles(reader);
  uint64_t total = 0;
  for (OTF2_LocationRef l : locations) {
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, l);
    if (!events) continue;
    OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks, nullptr);
    if (!applyMappings) {
      OTF2_EvtReader_ApplyMappingTables(events, false);
      OTF2_EvtReader_ApplyClockOffsets(events, false);
    }
    uint64_t n = 0;
    OTF2_Reader_ReadAllLocalEvents(reader, events, &n);
    total += n;
    OTF2_Reader_CloseEvtReader(reader, events);
  }
  OTF2_Reader_CloseEvtFiles(reader);
  OTF2_EvtReaderCallbacks_Delete(callbacks);
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const bool noMappings = argc == 3 && std::string_view(argv[1]) == "--no-mappings";
  if (argc != 2 && !noMappings) {
    std::fprintf(stderr, "usage: %s [--no-mappings] ANCHOR.otf2\n", argv[0]);
    return 1;
  }
  applyMappings = !noMappings;
  OTF2_Reader* reader = OTF2_Reader_Open(argv[argc - 1]);
  if (!reader) return 2;
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  if (!readDefinitions(reader)) {
    OTF2_Reader_Close(reader);
    return 2;
  }
  const uint64_t events = readEvents(reader);
  OTF2_Reader_Close(reader);
  std::printf("%llu events\n", static_cast<unsigned long long>(events));
  return 0;
}
