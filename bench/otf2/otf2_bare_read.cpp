// Baseline for the OTF2 reader benchmark: reads every event of an OTF2 archive through
// the OTF2 library with an empty callback for every event kind, doing nothing else.
// Usage: otf2_bare_read ANCHOR.otf2   (prints the number of events read)
#include <otf2/otf2.h>

#include <cstdio>
#include <vector>

namespace {

std::vector<OTF2_LocationRef> locations;

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

#define MTF_EMPTY(kind) setEmpty(&OTF2_EvtReaderCallbacks_Set##kind##Callback, c)

void setAllEmpty(OTF2_EvtReaderCallbacks* c) {
  MTF_EMPTY(Unknown);
  MTF_EMPTY(BufferFlush);
  MTF_EMPTY(MeasurementOnOff);
  MTF_EMPTY(Enter);
  MTF_EMPTY(Leave);
  MTF_EMPTY(MpiSend);
  MTF_EMPTY(MpiIsend);
  MTF_EMPTY(MpiIsendComplete);
  MTF_EMPTY(MpiIrecvRequest);
  MTF_EMPTY(MpiRecv);
  MTF_EMPTY(MpiIrecv);
  MTF_EMPTY(MpiRequestTest);
  MTF_EMPTY(MpiRequestCancelled);
  MTF_EMPTY(MpiCollectiveBegin);
  MTF_EMPTY(MpiCollectiveEnd);
  MTF_EMPTY(OmpFork);
  MTF_EMPTY(OmpJoin);
  MTF_EMPTY(OmpAcquireLock);
  MTF_EMPTY(OmpReleaseLock);
  MTF_EMPTY(OmpTaskCreate);
  MTF_EMPTY(OmpTaskSwitch);
  MTF_EMPTY(OmpTaskComplete);
  MTF_EMPTY(Metric);
  MTF_EMPTY(ParameterString);
  MTF_EMPTY(ParameterInt);
  MTF_EMPTY(ParameterUnsignedInt);
  MTF_EMPTY(RmaWinCreate);
  MTF_EMPTY(RmaWinDestroy);
  MTF_EMPTY(RmaCollectiveBegin);
  MTF_EMPTY(RmaCollectiveEnd);
  MTF_EMPTY(RmaGroupSync);
  MTF_EMPTY(RmaRequestLock);
  MTF_EMPTY(RmaAcquireLock);
  MTF_EMPTY(RmaTryLock);
  MTF_EMPTY(RmaReleaseLock);
  MTF_EMPTY(RmaSync);
  MTF_EMPTY(RmaWaitChange);
  MTF_EMPTY(RmaPut);
  MTF_EMPTY(RmaGet);
  MTF_EMPTY(RmaAtomic);
  MTF_EMPTY(RmaOpCompleteBlocking);
  MTF_EMPTY(RmaOpCompleteNonBlocking);
  MTF_EMPTY(RmaOpTest);
  MTF_EMPTY(RmaOpCompleteRemote);
  MTF_EMPTY(ThreadFork);
  MTF_EMPTY(ThreadJoin);
  MTF_EMPTY(ThreadTeamBegin);
  MTF_EMPTY(ThreadTeamEnd);
  MTF_EMPTY(ThreadAcquireLock);
  MTF_EMPTY(ThreadReleaseLock);
  MTF_EMPTY(ThreadTaskCreate);
  MTF_EMPTY(ThreadTaskSwitch);
  MTF_EMPTY(ThreadTaskComplete);
  MTF_EMPTY(ThreadCreate);
  MTF_EMPTY(ThreadBegin);
  MTF_EMPTY(ThreadWait);
  MTF_EMPTY(ThreadEnd);
  MTF_EMPTY(CallingContextEnter);
  MTF_EMPTY(CallingContextLeave);
  MTF_EMPTY(CallingContextSample);
  MTF_EMPTY(IoCreateHandle);
  MTF_EMPTY(IoDestroyHandle);
  MTF_EMPTY(IoDuplicateHandle);
  MTF_EMPTY(IoSeek);
  MTF_EMPTY(IoChangeStatusFlags);
  MTF_EMPTY(IoDeleteFile);
  MTF_EMPTY(IoOperationBegin);
  MTF_EMPTY(IoOperationTest);
  MTF_EMPTY(IoOperationIssued);
  MTF_EMPTY(IoOperationComplete);
  MTF_EMPTY(IoOperationCancelled);
  MTF_EMPTY(IoAcquireLock);
  MTF_EMPTY(IoReleaseLock);
  MTF_EMPTY(IoTryLock);
  MTF_EMPTY(ProgramBegin);
  MTF_EMPTY(ProgramEnd);
  MTF_EMPTY(NonBlockingCollectiveRequest);
  MTF_EMPTY(NonBlockingCollectiveComplete);
  MTF_EMPTY(CommCreate);
  MTF_EMPTY(CommDestroy);
}

#undef MTF_EMPTY

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
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s ANCHOR.otf2\n", argv[0]);
    return 1;
  }
  OTF2_Reader* reader = OTF2_Reader_Open(argv[1]);
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
