#include "converters/otf2/otf2_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>

#include "converters/otf2/otf2_anchor.hpp"
#include "converters/otf2/otf2_convention.hpp"
#include "converters/otf2/otf2_def_reading.hpp"
#include "converters/otf2/otf2_event_reading.hpp"
#include "converters/otf2/otf2_property_store.hpp"
#include "model/lane_turns.hpp"
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
  anchor_ = findAnchor(input);
  reader_.reset(OTF2_Reader_Open(anchor_.c_str()));
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
  if (!storedProperties_.empty()) restoreProperties();
  convention_ = findConvention(defs_);
  states_ = findStateLocations(defs_);
  if (convention_.any() || states_.any()) defs_ = withoutConvention(defs_, convention_, states_);
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
    char* value = nullptr;
    status = OTF2_Reader_GetProperty(reader_.get(), names[i], &value);
    if (status != OTF2_SUCCESS) fail("anchor file", status);
    const CString ownedValue(value);
    if (name == kStoredPropertiesName) {
      storedProperties_ = value ? value : "";
      continue;
    }
    std::string key;
    if (!name.starts_with(kPropertyNamespace) ||
        !decodePropertyKey(name.substr(kPropertyNamespace.size()), key))
      key = std::string(kForeignPropertyPrefix) + names[i];  // e.g. OTF2::MPI_COMMUNICATOR
    defs_.info.properties[key] = value ? value : "";
  }
}

// mtf's own properties (an archive mtf wrote) are strings otf2-print reads as any other:
// if they cannot be put together, the archive is read as a plain OTF2 archive, with a
// warning (refused with --strict).
void Otf2Reader::restoreProperties() {
  const std::map<std::string, std::string> before = defs_.info.properties;
  try {
    restoreStoredProperties(defs_, storedProperties_, anchor_.string());
  } catch (const InputError& e) {
    if (options_.strict) throw;
    defs_.info.properties = before;
    warnings_.push_back(std::string(e.what()) +
                        "; mtf's stored properties are left out (otf2-print reads the archive)");
    warn(warnings_.back());
  }
}

void Otf2Reader::readGlobalDefinitions() {
  OTF2_GlobalDefReader* defReader = OTF2_Reader_GetGlobalDefReader(reader_.get());
  if (!defReader) {
    const std::string why = takeLibraryMessage();
    const fs::path file = fs::path(anchor_).replace_extension(".def");
    std::error_code error;
    if (!fs::exists(file, error))  // otf2-print fails here too
      throw InputError(input_.string(), "",
                       "its global definitions " + file.filename().string() + " are missing");
    throw InputError(input_.string(), "", "no global definitions: " + why);
  }
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
  checkDeclaredCounts(records);
  if (state.unknownRecords) losses_["OTF2 definitions of unknown kind"] += state.unknownRecords;
}

// The anchor's counts are what other tools (otf2-print) trust; the file is what mtf reads.
void Otf2Reader::checkDeclaredCounts(uint64_t definitionsRead) {
  uint64_t declaredDefinitions = 0, declaredLocations = 0;
  OTF2_ErrorCode status =
      OTF2_Reader_GetNumberOfGlobalDefinitions(reader_.get(), &declaredDefinitions);
  if (status == OTF2_SUCCESS)
    status = OTF2_Reader_GetNumberOfLocations(reader_.get(), &declaredLocations);
  if (status != OTF2_SUCCESS) fail("anchor file", status);
  auto compare = [this](uint64_t declared, uint64_t held, const char* what) {
    if (declared == held) return;
    warnings_.push_back(anchor_.string() + ": the anchor declares " + std::to_string(declared) +
                        " " + what + (declared == 1 ? "" : "s") + ", the definitions file holds " +
                        std::to_string(held) + "; read as the file says");
    warn(warnings_.back());
  };
  compare(declaredDefinitions, definitionsRead, "global definition");
  compare(declaredLocations, defs_.count(DefKind::Location), "location");
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
void Otf2Reader::readLocalDefinitions(Lane& lane) {
  if (OTF2_Reader_OpenDefFiles(lane.reader) != OTF2_SUCCESS) {
    takeLibraryMessage();
    return;
  }
  const DefCallbacksHandle callbacks(OTF2_DefReaderCallbacks_New());
  OTF2_DefReaderCallbacks_SetMappingTableCallback(callbacks.get(), &onMappingTable);
  OTF2_DefReaderCallbacks_SetClockOffsetCallback(callbacks.get(), &onClockOffset);
  for (const OTF2_LocationRef location : lane.locations) {
    if (holdsNoLocalDefinitions(location)) continue;
    OTF2_DefReader* defReader = OTF2_Reader_GetDefReader(lane.reader, location);
    if (!defReader) continue;
    bool mapped = false;
    OTF2_Reader_RegisterDefCallbacks(lane.reader, defReader, callbacks.get(), &mapped);
    uint64_t records = 0;
    if (OTF2_Reader_ReadAllLocalDefinitions(lane.reader, defReader, &records) != OTF2_SUCCESS)
      mapped = true;  // read in part: let the library apply whatever it has
    if (mapped) lane.mappedLocations.insert(location);
    OTF2_Reader_CloseDefReader(lane.reader, defReader);
  }
  OTF2_Reader_CloseDefFiles(lane.reader);
  takeLibraryMessage();
}

OTF2_EvtReader* Otf2Reader::openEvtReader(Lane& lane, OTF2_LocationRef location,
                                          OTF2_EvtReaderCallbacks* callbacks,
                                          EventReadState& state) {
  OTF2_EvtReader* evtReader = OTF2_Reader_GetEvtReader(lane.reader, location);
  if (!evtReader) {
    const std::string why = takeLibraryMessage();
    if (!eventFileBytes(location))  // otf2-print fails here too
      throw InputError(input_.string(), placeLocation(location),
                       "its event file " + eventFileName(location) + " is missing");
    throw InputError(input_.string(), placeLocation(location), "cannot read events: " + why);
  }
  OTF2_Reader_RegisterEvtCallbacks(lane.reader, evtReader, callbacks, &state);
  // Mapping tables and clock offsets: see mappedLocations.
  if (!lane.mappedLocations.count(location)) {
    OTF2_EvtReader_ApplyMappingTables(evtReader, false);
    OTF2_EvtReader_ApplyClockOffsets(evtReader, false);
  }
  return evtReader;
}

void Otf2Reader::readLocationEvents(Lane& lane, OTF2_LocationRef location,
                                    OTF2_EvtReaderCallbacks* callbacks) {
  EventReadState& state = lane.state;
  OTF2_EvtReader* evtReader = openEvtReader(lane, location, callbacks, state);
  uint64_t records = 0;
  const OTF2_ErrorCode status =
      states_.statesOf.count(location)
          ? readWithStates(lane, evtReader, location, records)
          : OTF2_Reader_ReadAllLocalEvents(lane.reader, evtReader, &records);
  OTF2_Reader_CloseEvtReader(lane.reader, evtReader);
  if (state.error) std::rethrow_exception(state.error);
  deliverHeldSend(state);
  if (status == OTF2_SUCCESS) return;
  if (!options_.lenient)
    fail(placeLocation(location) + ", event " + std::to_string(records), status);
  takeLibraryMessage();
  lane.losses["OTF2 locations whose events could not all be read"]++;
}

// Each State held from the states location goes after exactly the number of the owner's
// events the writer had written before it (its position), then the owner's rest.
OTF2_ErrorCode Otf2Reader::readWithStates(Lane& lane, OTF2_EvtReader* owner,
                                          OTF2_LocationRef ownerLocation, uint64_t& records) {
  const OTF2_LocationRef location = states_.statesOf.at(ownerLocation);
  OTF2_EvtReader* states = OTF2_Reader_GetEvtReader(lane.reader, location);
  if (!states)
    throw InputError(input_.string(), placeLocation(location),
                     "cannot read events: " + takeLibraryMessage());
  const EvtCallbacksHandle callbacks(OTF2_EvtReaderCallbacks_New());
  registerStateCallbacks(callbacks.get());
  StateHold hold;
  hold.endAttribute = convention_.stateEndAttribute;
  hold.positionAttribute = convention_.statePositionAttribute;
  hold.stateOfRegion = &states_.stateOfRegion;
  hold.owner = ownerLocation;
  OTF2_Reader_RegisterEvtCallbacks(lane.reader, states, callbacks.get(), &hold);
  OTF2_EvtReader_ApplyMappingTables(states, false);
  OTF2_EvtReader_ApplyClockOffsets(states, false);
  OTF2_ErrorCode status = OTF2_SUCCESS;
  while (status == OTF2_SUCCESS) {
    hold.held = false;
    for (uint64_t got = 1; !hold.held && got == 1 && status == OTF2_SUCCESS;)
      status = OTF2_Reader_ReadLocalEvents(lane.reader, states, 1, &got);
    if (!hold.held || status != OTF2_SUCCESS) break;
    if (hold.position > records) {
      uint64_t got = 0;
      status = OTF2_Reader_ReadLocalEvents(lane.reader, owner, hold.position - records, &got);
      records += got;
      if (lane.state.error) std::rethrow_exception(lane.state.error);
    }
    deliverEvent(lane.state, hold.event);
  }
  OTF2_Reader_CloseEvtReader(lane.reader, states);
  if (hold.ignored)
    lane.losses["OTF2 Enter events of states locations that are no state"] += hold.ignored;
  if (status != OTF2_SUCCESS) return status;
  uint64_t rest = 0;
  status = OTF2_Reader_ReadAllLocalEvents(lane.reader, owner, &rest);
  records += rest;
  return status;
}

void Otf2Reader::useConvention(EventReadState& state) const {
  state.stateParameter = convention_.stateParameter;
  state.stateEndAttribute = convention_.stateEndAttribute;
  state.genericParameter = convention_.genericParameter;
  state.genericTypeAttribute = convention_.genericTypeAttribute;
  state.sendAfterLeaveAttribute = convention_.sendAfterLeaveAttribute;
  state.conventionInUse = convention_.any();
}

// Reads the events of the lane's locations, location after location, through its own
// reader handle (the library's readers are not shared between threads).
void Otf2Reader::readLane(Lane& lane) {
  for (const OTF2_LocationRef location : lane.locations) {
    OTF2_Reader_SelectLocation(lane.reader, location);
    const auto states = states_.statesOf.find(location);
    if (states != states_.statesOf.end()) OTF2_Reader_SelectLocation(lane.reader, states->second);
  }
  readLocalDefinitions(lane);
  EventReadState& state = lane.state;
  useConvention(state);
  const EvtCallbacksHandle callbacks(OTF2_EvtReaderCallbacks_New());
  registerEventCallbacks(callbacks.get());
  const OTF2_ErrorCode status = OTF2_Reader_OpenEvtFiles(lane.reader);
  if (status != OTF2_SUCCESS) fail("", status);
  for (const OTF2_LocationRef location : lane.locations)
    readLocationEvents(lane, location, callbacks.get());
  if (state.batcher) state.batcher->flush();
  OTF2_Reader_CloseEvtFiles(lane.reader);
  if (state.unknownRecords) lane.losses["OTF2 events of unknown kind"] += state.unknownRecords;
}

void Otf2Reader::read(TraceSink& sink) {
  const Definitions& defs = definitions();
  std::vector<OTF2_LocationRef> locations;
  for (const LocationView& location : defs.locations())
    if (selected_.empty() ||
        std::find(selected_.begin(), selected_.end(), location.id) != selected_.end())
      locations.push_back(location.id);
  sink.begin(defs);
  Progress progress("reading " + input_.filename().string(), options_.progress);
  if (canReadInTimeOrder(locations) && sink.takeTimeOrder()) {
    readInTimeOrder(locations, sink, progress);
  } else if (sink.prefersBatches() && locations.size() >= 2) {
    readInLanes(locations, sink, progress);
  } else {
    Lane lane{reader_.get(), std::move(locations)};
    EventBatcher batcher([&sink](const SharedEventBatch& batch) { sink.events(batch); });
    lane.state.sink = &sink;
    if (sink.prefersBatches()) lane.state.batcher = &batcher;
    if (options_.progress) lane.state.progress = &progress;
    readLane(lane);
    mergeLosses(lane.losses);
  }
  progress.finish();
  sink.end();
}

void Otf2Reader::mergeLosses(const LossReport& losses) {
  for (const auto& [what, count] : losses) losses_[what] += count;
}

// Two lanes, each with its own reader handle and half of the locations (in definition
// order, split by the size of their event files), read at once; their batches reach
// the sink in the fixed rotation of LaneTurns. Always two, whatever the number of
// cores: the sink then sees the same stream, and writes the same archive, everywhere.
void Otf2Reader::readInLanes(const std::vector<OTF2_LocationRef>& locations, TraceSink& sink,
                             Progress& progress) {
  constexpr size_t kLanes = 2;
  const size_t split = splitLocations(locations);
  ReaderHandle second(OTF2_Reader_Open(anchor_.c_str()));
  if (!second)
    throw InputError(input_.string(), "", "cannot open OTF2 archive: " + takeLibraryMessage());
  const OTF2_ErrorCode status = OTF2_Reader_SetSerialCollectiveCallbacks(second.get());
  if (status != OTF2_SUCCESS) fail("", status);
  std::vector<Lane> lanes;
  lanes.push_back(Lane{reader_.get(), {locations.begin(), locations.begin() + split}});
  lanes.push_back(Lane{second.get(), {locations.begin() + split, locations.end()}});
  LaneTurns turns(kLanes, sink, [&progress, done = uint64_t{0}](uint64_t events) mutable {
    progress.advance(done, done + events);
    done += events;
  });
  std::vector<std::unique_ptr<EventBatcher>> batchers;
  for (size_t i = 0; i < kLanes; ++i) {
    batchers.push_back(std::make_unique<EventBatcher>(
        [&turns, i](const SharedEventBatch& batch) { turns.add(i, batch); }));
    lanes[i].state.sink = &sink;
    lanes[i].state.batcher = batchers[i].get();
  }
  runLanes(turns, kLanes, [&](size_t lane) { readLane(lanes[lane]); });
  for (const Lane& lane : lanes) mergeLosses(lane.losses);
}

// The event file of `location` beside the anchor, e.g. "traces/0.evt".
std::string Otf2Reader::eventFileName(OTF2_LocationRef location) const {
  return (fs::path(anchor_).stem() / (std::to_string(location) + ".evt")).string();
}

// An empty local definitions file is its chunk header (OTF2_BUFFER_CHUNK_HEADER, the byte
// order, the first and last record numbers: 18 bytes) followed at once by the end-of-file
// record and the end-of-buffer byte: 20 bytes, as OTF2 writes it for a location without
// mapping tables or clock offsets (every location of mtf-gen's traces). The library would
// allocate and clear a whole chunk buffer to read it (4 M instructions per location).
bool Otf2Reader::holdsNoLocalDefinitions(OTF2_LocationRef location) const {
  constexpr size_t kEmptyBytes = 20, kHeaderBytes = 18;
  constexpr unsigned char kChunkHeader = 3, kEndOfFile = 2;
  const fs::path file = fs::path(anchor_).parent_path() / fs::path(anchor_).stem() /
                        (std::to_string(location) + ".def");
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;  // the library says what is wrong, if anything
  char bytes[kEmptyBytes + 1];
  in.read(bytes, sizeof bytes);
  return in.gcount() == static_cast<std::streamsize>(kEmptyBytes) &&
         static_cast<unsigned char>(bytes[0]) == kChunkHeader &&
         static_cast<unsigned char>(bytes[kHeaderBytes]) == kEndOfFile;
}

std::optional<uintmax_t> Otf2Reader::eventFileBytes(OTF2_LocationRef location) const {
  const fs::path file = fs::path(anchor_).parent_path() / eventFileName(location);
  std::error_code error;
  const uintmax_t size = fs::file_size(file, error);
  if (error) return std::nullopt;
  return size;
}

std::map<LocationId, uint64_t> Otf2Reader::eventEstimates() {
  std::map<LocationId, uint64_t> declared, fileBytes;
  bool allDeclared = true;
  for (const LocationView& location : definitions().locations()) {
    declared[location.id] = location.declaredEvents;
    allDeclared = allDeclared && location.declaredEvents > 0;
    if (const auto size = eventFileBytes(location.id)) fileBytes[location.id] = *size;
  }
  return allDeclared ? declared : fileBytes;
}

// Where lane 1's locations begin: the first location at which the event files before it
// hold half of all event bytes (by count if the files cannot be sized); each lane gets
// at least one location.
size_t Otf2Reader::splitLocations(const std::vector<OTF2_LocationRef>& locations) const {
  std::vector<uintmax_t> weights;
  for (const OTF2_LocationRef location : locations) {
    const std::optional<uintmax_t> size = eventFileBytes(location);
    if (!size) {
      weights.assign(locations.size(), 1);
      break;
    }
    weights.push_back(*size);
  }
  uintmax_t total = 0;
  for (const uintmax_t w : weights) total += w;
  uintmax_t before = 0;
  size_t split = 0;
  while (split + 1 < locations.size() && 2 * (before + weights[split]) <= total)
    before += weights[split++];
  return std::max<size_t>(split, 1);
}

}  // namespace mtf::otf2
