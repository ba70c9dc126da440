#include "converters/otf2/otf2_reader.hpp"

#include <cstdlib>

#include "converters/otf2/otf2_anchor.hpp"
#include "converters/otf2/otf2_convention.hpp"
#include "converters/otf2/otf2_def_reading.hpp"
#include "converters/otf2/otf2_event_reading.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"

namespace fs = std::filesystem;

namespace mtf::otf2 {

namespace {

// A C string the OTF2 library allocated for us.
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using CString = std::unique_ptr<char, FreeDeleter>;

}  // namespace

Otf2Reader::Otf2Reader(const fs::path& input, const ReadOptions& options)
    : input_(input), options_(options) {
  installErrorHandler();
  const fs::path anchor = findAnchor(input);
  reader_.reset(OTF2_Reader_Open(anchor.c_str()));
  if (!reader_)
    throw InputError(input_.string(), "", "cannot open OTF2 archive: " + takeLibraryMessage());
  const OTF2_ErrorCode status = OTF2_Reader_SetSerialCollectiveCallbacks(reader_.get());
  if (status != OTF2_SUCCESS) fail("", status);
}

Otf2Reader::~Otf2Reader() = default;

void Otf2Reader::fail(const std::string& place, OTF2_ErrorCode code) const {
  throw InputError(input_.string(), place, describe(code));
}

const Definitions& Otf2Reader::definitions() {
  if (defsRead_) return defs_;
  readInfo();
  readProperties();
  readGlobalDefinitions();
  convention_ = findConvention(defs_);
  if (convention_.any()) defs_ = withoutConvention(defs_, convention_);
  defsRead_ = true;
  return defs_;
}

void Otf2Reader::readInfo() {
  uint8_t major = 0, minor = 0, bugfix = 0;
  OTF2_ErrorCode status = OTF2_Reader_GetVersion(reader_.get(), &major, &minor, &bugfix);
  if (status != OTF2_SUCCESS) fail("anchor file", status);
  defs_.info.format = "otf2";
  defs_.info.version =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(bugfix);
  char* creator = nullptr;
  status = OTF2_Reader_GetCreator(reader_.get(), &creator);
  if (status != OTF2_SUCCESS) fail("anchor file", status);
  const CString owned(creator);
  defs_.info.creator = creator ? creator : "";
}

void Otf2Reader::readProperties() {
  uint32_t count = 0;
  char** names = nullptr;
  OTF2_ErrorCode status = OTF2_Reader_GetPropertyNames(reader_.get(), &count, &names);
  if (status != OTF2_SUCCESS) fail("anchor file", status);
  const std::unique_ptr<char*, FreeDeleter> ownedNames(names);
  for (uint32_t i = 0; i < count; ++i) {
    const std::string_view name(names[i]);
    std::string key;
    if (!name.starts_with(kPropertyNamespace) ||
        !decodePropertyKey(name.substr(kPropertyNamespace.size()), key))
      key = std::string(kForeignPropertyPrefix) + names[i];  // e.g. OTF2::MPI_COMMUNICATOR
    char* value = nullptr;
    status = OTF2_Reader_GetProperty(reader_.get(), names[i], &value);
    if (status != OTF2_SUCCESS) fail("anchor file", status);
    const CString ownedValue(value);
    defs_.info.properties[key] = value ? value : "";
  }
}

void Otf2Reader::readGlobalDefinitions() {
  OTF2_GlobalDefReader* defReader = OTF2_Reader_GetGlobalDefReader(reader_.get());
  if (!defReader)
    throw InputError(input_.string(), "", "no global definitions: " + takeLibraryMessage());
  const GlobalDefCallbacksHandle callbacks(OTF2_GlobalDefReaderCallbacks_New());
  registerDefinitionCallbacks(callbacks.get());
  DefReadState state;
  state.defs = &defs_;
  OTF2_Reader_RegisterGlobalDefCallbacks(reader_.get(), defReader, callbacks.get(), &state);
  uint64_t records = 0;
  const OTF2_ErrorCode status =
      OTF2_Reader_ReadAllGlobalDefinitions(reader_.get(), defReader, &records);
  OTF2_Reader_CloseGlobalDefReader(reader_.get(), defReader);
  if (state.error) std::rethrow_exception(state.error);
  if (status != OTF2_SUCCESS) fail("global definitions, record " + std::to_string(records), status);
  if (state.unknownRecords) losses_["OTF2 definitions of unknown kind"] += state.unknownRecords;
}

namespace {

// Local definitions that change the events as the library reads them.
OTF2_CallbackCode onMappingTable(void* mapped, OTF2_MappingType, const OTF2_IdMap*) {
  *static_cast<bool*>(mapped) = true;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode onClockOffset(void* mapped, OTF2_TimeStamp, int64_t, double) {
  *static_cast<bool*>(mapped) = true;
  return OTF2_CALLBACK_SUCCESS;
}

}  // namespace

// Local definitions hold the mapping tables and clock offsets the library applies to
// the events; like otf2-print, a location without local definitions is fine.
void Otf2Reader::readLocalDefinitions(const std::vector<LocationView>& locations) {
  if (OTF2_Reader_OpenDefFiles(reader_.get()) != OTF2_SUCCESS) {
    takeLibraryMessage();
    return;
  }
  const DefCallbacksHandle callbacks(OTF2_DefReaderCallbacks_New());
  OTF2_DefReaderCallbacks_SetMappingTableCallback(callbacks.get(), &onMappingTable);
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(callbacks.get(), &onClockOffset);
  for (const LocationView& location : locations) {
    OTF2_DefReader* defReader = OTF2_Reader_GetDefReader(reader_.get(), location.id);
    if (!defReader) continue;
    bool mapped = false;
    OTF2_Reader_RegisterDefCallbacks(reader_.get(), defReader, callbacks.get(), &mapped);
    uint64_t records = 0;
    if (OTF2_Reader_ReadAllLocalDefinitions(reader_.get(), defReader, &records) != OTF2_SUCCESS)
      mapped = true;  // read in part: let the library apply whatever it has
    if (mapped) mappedLocations_.insert(location.id);
    OTF2_Reader_CloseDefReader(reader_.get(), defReader);
  }
  OTF2_Reader_CloseDefFiles(reader_.get());
  takeLibraryMessage();
}

void Otf2Reader::readLocationEvents(OTF2_LocationRef location, OTF2_EvtReaderCallbacks* callbacks,
                                    EventReadState& state) {
  OTF2_EvtReader* evtReader = OTF2_Reader_GetEvtReader(reader_.get(), location);
  if (!evtReader)
    throw InputError(input_.string(), placeLocation(location),
                     "cannot read events: " + takeLibraryMessage());
  OTF2_Reader_RegisterEvtCallbacks(reader_.get(), evtReader, callbacks, &state);
  if (!mappedLocations_.count(location)) {
    OTF2_EvtReader_ApplyMappingTables(evtReader, false);
    OTF2_EvtReader_ApplyClockOffsets(evtReader, false);
  }
  uint64_t records = 0;
  const OTF2_ErrorCode status = OTF2_Reader_ReadAllLocalEvents(reader_.get(), evtReader, &records);
  OTF2_Reader_CloseEvtReader(reader_.get(), evtReader);
  if (state.error) std::rethrow_exception(state.error);
  if (status == OTF2_SUCCESS) return;
  if (!options_.lenient)
    fail(placeLocation(location) + ", event " + std::to_string(records), status);
  takeLibraryMessage();
  losses_["OTF2 locations whose events could not all be read"]++;
}

void Otf2Reader::read(TraceSink& sink) {
  const Definitions& defs = definitions();
  const std::vector<LocationView> locations = defs.locations();
  for (const LocationView& location : locations)
    OTF2_Reader_SelectLocation(reader_.get(), location.id);
  readLocalDefinitions(locations);
  EventBatcher batcher([&sink](const SharedEventBatch& batch) { sink.events(batch); });
  EventReadState state;
  state.sink = &sink;
  if (sink.prefersBatches()) state.batcher = &batcher;
  state.stateParameter = convention_.stateParameter;
  state.stateEndAttribute = convention_.stateEndAttribute;
  state.genericParameter = convention_.genericParameter;
  state.genericTypeAttribute = convention_.genericTypeAttribute;
  state.conventionInUse = convention_.any();
  const EvtCallbacksHandle callbacks(OTF2_EvtReaderCallbacks_New());
  registerEventCallbacks(callbacks.get());
  sink.begin(defs);
  OTF2_ErrorCode status = OTF2_Reader_OpenEvtFiles(reader_.get());
  if (status != OTF2_SUCCESS) fail("", status);
  Progress progress("reading " + input_.filename().string(), options_.progress);
  if (options_.progress) state.progress = &progress;
  for (const LocationView& location : locations)
    readLocationEvents(location.id, callbacks.get(), state);
  batcher.flush();
  progress.finish();
  OTF2_Reader_CloseEvtFiles(reader_.get());
  if (state.unknownRecords) losses_["OTF2 events of unknown kind"] += state.unknownRecords;
  sink.end();
}

}  // namespace mtf::otf2
