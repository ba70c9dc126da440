#include "converters/otf2/otf2_writer.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <vector>

#include "converters/otf2/otf2_def_writing.hpp"
#include "converters/otf2/otf2_write_check.hpp"
#include "model/mpi_ranks.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;

namespace mtf::otf2 {

namespace {

OTF2_FlushType alwaysFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
// No post-flush callback: OTF2 then records no BufferFlush events of its own, so the
// output holds exactly the events it was given.
OTF2_FlushCallbacks flushCallbacks = {&alwaysFlush, nullptr};

// Memory for the writers' chunks. OTF2's default pool lets every writer hold up to
// 128 MiB before it writes anything; to keep memory bounded whatever the trace size, a
// buffer gets at most kChunksPerBuffer chunks: when it asks for one more, allocate returns
// NULL, OTF2 flushes the buffer to its file and frees its chunks through freeAll.
constexpr size_t kChunksPerBuffer = 1;

struct BufferChunks {
  std::vector<void*> chunks;
};

void* allocateChunk(void*, OTF2_FileType, OTF2_LocationRef, void** perBuffer, uint64_t size) {
  if (!*perBuffer) *perBuffer = new (std::nothrow) BufferChunks;
  auto* buffer = static_cast<BufferChunks*>(*perBuffer);
  if (!buffer || buffer->chunks.size() >= kChunksPerBuffer) return nullptr;
  void* chunk = std::malloc(size);
  if (chunk) buffer->chunks.push_back(chunk);
  return chunk;
}

void freeAllChunks(void*, OTF2_FileType, OTF2_LocationRef, void** perBuffer, bool final) {
  auto* buffer = static_cast<BufferChunks*>(*perBuffer);
  if (!buffer) return;
  for (void* chunk : buffer->chunks) std::free(chunk);
  buffer->chunks.clear();
  if (final) {
    delete buffer;
    *perBuffer = nullptr;
  }
}

OTF2_MemoryCallbacks memoryCallbacks = {&allocateChunk, &freeAllChunks};

bool allDefined(const ConventionRefs& r) {
  return r.stateParameter != kUndefinedRef && r.stateEndAttribute != kUndefinedRef &&
         r.genericParameter != kUndefinedRef && r.genericTypeAttribute != kUndefinedRef &&
         r.statePositionAttribute != kUndefinedRef;
}

}  // namespace

Otf2Writer::Otf2Writer(const fs::path& path) : path_(path) {
  installErrorHandler();
}

Otf2Writer::~Otf2Writer() = default;

void Otf2Writer::failIo(const std::string& what, OTF2_ErrorCode code) const {
  throw IoError(path_.string(), what + ": " + describe(code));
}

void Otf2Writer::begin(const Definitions& defs) {
  defs_ = defs;
  threadMessages_.begin(defs_);
  const ConventionRefs existing = findConvention(defs_);
  if (allDefined(existing))
    convention_.refs = existing;  // the input already defines them: reuse, add nothing
  else
    convention_ = planConvention(defs_);
  encoder_ = std::make_unique<EventEncoder>(convention_.refs);
  sendsBeforeLeaves_ = defs_.info.properties.count(std::string(kParaverHeaderProperty)) &&
                       convention_.refs.sendAfterLeaveAttribute != kUndefinedRef;
  if (sendsBeforeLeaves_) mpiRegion_ = mpiRegionFlags(defs_);
  properties_ = planProperties(
      defs_.info, std::max(nextFreeString(defs_.records()), nextFreeString(convention_.records)));
  for (const LocationView& location : defs_.locations()) {
    if (evtWriters_.emplace(location.id, nullptr).second) locationOrder_.push_back(location.id);
  }
  // The states' strings after every other string the writer may write.
  const uint64_t firstFreeString =
      std::max({nextFreeString(properties_.strings), nextFreeString(defs_.records()),
                nextFreeString(convention_.records)});
  states_ = std::make_unique<StateRegionPlan>(defs_, firstFreeString);
  openArchive();
  setArchiveProperties();
  const OTF2_ErrorCode status = OTF2_Archive_OpenEvtFiles(archive_.get());
  if (status != OTF2_SUCCESS) failIo("cannot open event files", status);
}

fs::path Otf2Writer::archiveDirectory() const {
  return path_.has_parent_path() ? path_.parent_path() : fs::path(".");
}

std::string Otf2Writer::archiveName() const {
  return path_.extension() == ".otf2" ? path_.stem().string() : path_.filename().string();
}

void Otf2Writer::openArchive() {
  const fs::path dir = archiveDirectory();
  const std::string name = archiveName();
  archive_.reset(OTF2_Archive_Open(
      dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE));
  if (!archive_)
    throw IoError(path_.string(), "cannot create OTF2 archive: " + takeLibraryMessage());
  OTF2_ErrorCode status = OTF2_Archive_SetFlushCallbacks(archive_.get(), &flushCallbacks, nullptr);
  if (status == OTF2_SUCCESS)
    status = OTF2_Archive_SetMemoryCallbacks(archive_.get(), &memoryCallbacks, nullptr);
  if (status == OTF2_SUCCESS) status = OTF2_Archive_SetSerialCollectiveCallbacks(archive_.get());
  if (status != OTF2_SUCCESS) failIo("cannot set up OTF2 archive", status);
}

void Otf2Writer::setArchiveProperties() {
  const std::string creator = defs_.info.creator.empty() ? "mtf" : defs_.info.creator;
  OTF2_ErrorCode status = OTF2_Archive_SetCreator(archive_.get(), creator.c_str());
  if (status != OTF2_SUCCESS) failIo("cannot set creator", status);
  for (const auto& [name, value] : properties_.anchor) {
    status = OTF2_Archive_SetProperty(archive_.get(), name.c_str(), value.c_str(), true);
    if (status != OTF2_SUCCESS) failIo("cannot store property " + name, status);
  }
}

OTF2_EvtWriter* Otf2Writer::writerFor(LocationId location) {
  const auto it = evtWriters_.find(location);
  if (it == evtWriters_.end())
    throw InputError(path_.string(), placeLocation(location),
                     "event of a location the definitions do not define");
  if (!it->second) {
    it->second = OTF2_Archive_GetEvtWriter(archive_.get(), location);
    if (!it->second)
      throw IoError(path_.string(), "cannot create the event writer of location " +
                                        std::to_string(location) + ": " + takeLibraryMessage());
  }
  return it->second;
}

LossReport Otf2Writer::losses() const {
  LossReport report;
  threadMessages_.report(
      report,
      "message events whose partner is another thread than its rank's location (OTF2 names "
      "ranks; the thread is kept in the attribute paraver:peer_thread, which OTF2 tools ignore)",
      "message events matched out of their channel's order (OTF2 tools match in order; the "
      "pairing is kept in the attribute paraver:message only)");
  return report;
}

void Otf2Writer::event(const Event& e) {
  if (!archive_ || !encoder_) throw std::logic_error("Otf2Writer::event() without begin()");
  if (sendsBeforeLeaves_) [[unlikely]]
    return writeAroundLeave(e);
  write(e);
}

// An MpiSend right after the Leave of an MPI call, at the same time, is written before it
// (otf2_convention.hpp): the Leave waits for its location's next event.
void Otf2Writer::writeAroundLeave(const Event& e) {
  const auto held = heldLeaves_.find(e.location);
  if (held != heldLeaves_.end()) {
    const bool sendOfTheCall = e.kind == EventKind::MpiSend && e.time == held->second.time;
    if (sendOfTheCall) write(e, true);
    write(held->second);
    heldLeaves_.erase(held);
    if (sendOfTheCall) return;
  }
  const bool mpiLeave = e.kind == EventKind::Leave && !e.fields.empty() &&
                        e.fields[0] < mpiRegion_.size() && mpiRegion_[e.fields[0]];
  if (mpiLeave)
    heldLeaves_.emplace(e.location, e);
  else
    write(e);
}

void Otf2Writer::writeHeldLeaves() {
  for (const auto& [location, leave] : heldLeaves_) write(leave);
  heldLeaves_.clear();
}

void Otf2Writer::write(const Event& e, bool sendBeforeLeave) {
  if (e.location != lastLocation_ || !lastWriter_) {
    lastWriter_ = writerFor(e.location);
    lastLocation_ = e.location;
  }
  threadMessages_.event(e);
  if (e.kind == EventKind::State && writeStateRegion(e)) {
    ++written_;
    return;
  }
  const OTF2_ErrorCode status = sendBeforeLeave ? encoder_->writeSendBeforeLeave(lastWriter_, e)
                                                : encoder_->write(lastWriter_, e);
  if (status == OTF2_ERROR_INVALID_ARGUMENT)
    throw InputError(path_.string(), placeLocation(e.location),
                     "malformed " + std::string(nameOf(e.kind)) + " event (event " +
                         std::to_string(written_) + ")");
  if (status != OTF2_SUCCESS) failIo("cannot write event", status);
  ++written_;
}

// A State as a region on its thread's states location (otf2_convention.hpp); false when
// it must be written the old way (it would cross a state still open there). A state that
// ends before it begins (paraver-kernel reads such records) is a region of no length at
// its begin, its end kept in the Enter's attribute.
bool Otf2Writer::writeStateRegion(const Event& e) {
  if (e.fields.size() < 2) return false;
  const Tick leave = std::max<Tick>(e.fields[0], e.time);
  OTF2_EvtWriter* owner = lastWriter_;  // event() found it
  StateRegionPlan::Track& track = states_->trackOf(e.location);
  if (evtWriters_.emplace(track.location, nullptr).second) locationOrder_.push_back(track.location);
  leaveStates(track.location, track, e.time);
  if (!track.pending.empty() && track.pending.back().first < leave) return false;
  uint64_t position = 0;
  OTF2_EvtWriter_GetNumberOfEvents(owner, &position);
  const Ref region = states_->regionOf(e.fields[1]);
  const OTF2_ErrorCode status =
      encoder_->writeStateEnter(writerFor(track.location), e, region, position);
  if (status != OTF2_SUCCESS) failIo("cannot write event", status);
  track.pending.emplace_back(leave, region);
  ++track.states;
  return true;
}

// Writes the Leaves of the states that end at or before `upTo`, innermost first.
void Otf2Writer::leaveStates(LocationId statesLocation, StateRegionPlan::Track& track, Tick upTo) {
  while (!track.pending.empty() && track.pending.back().first <= upTo) {
    const auto [end, region] = track.pending.back();
    track.pending.pop_back();
    const OTF2_ErrorCode status =
        OTF2_EvtWriter_Leave(writerFor(statesLocation), nullptr, end, region);
    if (status != OTF2_SUCCESS) failIo("cannot write event", status);
  }
}

// Closes every event writer (creating the empty ones of silent locations) and returns
// the number of events each holds.
std::unordered_map<LocationId, uint64_t> Otf2Writer::closeEventWriters() {
  std::unordered_map<LocationId, uint64_t> counts;
  for (StateRegionPlan::Track* track : states_->tracks())
    leaveStates(track->location, *track, ~Tick{0});
  for (const LocationId location : locationOrder_) {
    OTF2_EvtWriter* writer = writerFor(location);
    uint64_t n = 0;
    OTF2_EvtWriter_GetNumberOfEvents(writer, &n);
    counts[location] = n;
    const OTF2_ErrorCode status = OTF2_Archive_CloseEvtWriter(archive_.get(), writer);
    evtWriters_[location] = nullptr;
    if (status != OTF2_SUCCESS) failIo("cannot write events", status);
  }
  lastWriter_ = nullptr;
  const OTF2_ErrorCode status = OTF2_Archive_CloseEvtFiles(archive_.get());
  if (status != OTF2_SUCCESS) failIo("cannot close event files", status);
  return counts;
}

// Every location gets an (empty) local definition file, as Score-P writes them.
void Otf2Writer::writeLocalDefinitions() {
  OTF2_ErrorCode status = OTF2_Archive_OpenDefFiles(archive_.get());
  if (status != OTF2_SUCCESS) failIo("cannot open definition files", status);
  for (const LocationId location : locationOrder_) {
    OTF2_DefWriter* writer = OTF2_Archive_GetDefWriter(archive_.get(), location);
    if (!writer) failIo("cannot create local definitions", OTF2_ERROR_MEM_ALLOC_FAILED);
    status = OTF2_Archive_CloseDefWriter(archive_.get(), writer);
    if (status != OTF2_SUCCESS) failIo("cannot write local definitions", status);
  }
  status = OTF2_Archive_CloseDefFiles(archive_.get());
  if (status != OTF2_SUCCESS) failIo("cannot close definition files", status);
}

void Otf2Writer::writeGlobalDefinitions(
    const std::unordered_map<LocationId, uint64_t>& eventCounts) {
  OTF2_GlobalDefWriter* writer = OTF2_Archive_GetGlobalDefWriter(archive_.get());
  if (!writer) failIo("cannot create global definitions", OTF2_ERROR_MEM_ALLOC_FAILED);
  const ClockProperties& c = defs_.clock;
  OTF2_ErrorCode status = OTF2_GlobalDefWriter_WriteClockProperties(
      writer, c.resolution, c.globalOffset, c.traceLength, c.realtime);
  if (status != OTF2_SUCCESS) failIo("cannot write clock properties", status);
  auto write = [&](const DefRecord& record, size_t index) {
    status = writeDefinition(writer, record);
    if (status == OTF2_ERROR_INVALID_ARGUMENT)
      throw InputError(path_.string(), placeRecord(index),
                       "malformed " + std::string(nameOf(record.kind)) + " definition");
    if (status != OTF2_SUCCESS) failIo("cannot write definitions", status);
  };
  size_t index = 0;
  for (const DefRecord& record : defs_.records()) {
    if (record.kind == DefKind::Location && record.fields.size() > 3) {
      DefRecord counted = record;
      // The real count, with the thread's States written on its states location.
      counted.fields[3] = eventCounts.at(record.fields[0]) + states_->statesOf(record.fields[0]);
      write(counted, index++);
    } else {
      write(record, index++);
    }
  }
  if (encoder_->usedConvention())
    for (const DefRecord& record : conventionRecordsToWrite(convention_, encoder_->markedSends()))
      write(record, index++);
  for (const DefRecord& record : states_->records(eventCounts)) write(record, index++);
  for (const DefRecord& record : properties_.strings) write(record, index++);
  status = OTF2_Archive_CloseGlobalDefWriter(archive_.get(), writer);
  if (status != OTF2_SUCCESS) failIo("cannot write global definitions", status);
  definitionsWritten_ = index + 1;  // with the clock properties
}

void Otf2Writer::end() {
  if (!archive_ || !encoder_) throw std::logic_error("Otf2Writer::end() without begin()");
  writeHeldLeaves();
  const auto eventCounts = closeEventWriters();
  writeLocalDefinitions();
  writeGlobalDefinitions(eventCounts);
  const OTF2_ErrorCode status = OTF2_Archive_Close(archive_.release());
  if (status != OTF2_SUCCESS) failIo("cannot finish the archive", status);
  checkArchiveReadsBack(archiveDirectory() / (archiveName() + ".otf2"), definitionsWritten_);
}

}  // namespace mtf::otf2
