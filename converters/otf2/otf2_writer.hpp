// The OTF2 writer: a TraceSink that writes an OTF2 archive through the OTF2 library.
#pragma once

#include <filesystem>
#include <memory>
#include <unordered_map>

#include "converters/otf2/otf2_common.hpp"
#include "converters/otf2/otf2_convention.hpp"
#include "converters/otf2/otf2_event_writing.hpp"
#include "converters/otf2/otf2_property_store.hpp"
#include "converters/otf2/otf2_state_regions.hpp"
#include "model/thread_messages.hpp"
#include "model/trace_stream.hpp"

namespace mtf::otf2 {

class Otf2Writer : public TraceSink {
 public:
  // `path` names the anchor file: /dir/name.otf2 makes /dir/name.otf2, /dir/name.def and
  // /dir/name/ (one .evt and .def per location). The directory /dir must exist.
  explicit Otf2Writer(const std::filesystem::path& path);
  ~Otf2Writer() override;

  void begin(const Definitions& defs) override;
  // Events of different locations may be interleaved; each location has its own
  // OTF2 event writer (a 1 MiB chunk plus the library's 4 MiB file buffer), so memory
  // grows with the number of locations, never with the number of events.
  void event(const Event& e) override;
  // Writes the global definitions (with the real per-location event counts), closes the
  // archive and checks that OTF2's reader opens it (otf2_write_check.hpp).
  void end() override;
  // OTF2 names ranks: messages between other threads, or matched out of their channel's
  // order, keep that only in attributes OTF2 tools ignore (model/thread_messages.hpp).
  LossReport losses() const override;

 private:
  // The archive is <directory>/<name>.otf2 (+ .def and a folder): see the constructor.
  std::filesystem::path archiveDirectory() const;
  std::string archiveName() const;
  void openArchive();
  void setArchiveProperties();
  OTF2_EvtWriter* writerFor(LocationId location);
  void write(const Event& e, bool sendBeforeLeave = false);
  void writeAroundLeave(const Event& e);
  void writeHeldLeaves();
  bool writeStateRegion(const Event& e);
  void leaveStates(LocationId statesLocation, StateRegionPlan::Track& track, Tick upTo);
  std::unordered_map<LocationId, uint64_t> closeEventWriters();
  void writeLocalDefinitions();
  void writeGlobalDefinitions(const std::unordered_map<LocationId, uint64_t>& eventCounts);
  [[noreturn]] void failIo(const std::string& what, OTF2_ErrorCode code) const;

  std::filesystem::path path_;
  ArchiveHandle archive_;
  Definitions defs_;
  ConventionDefinitions convention_;  // records to add if State / Generic events occur
  PropertyPlan properties_;           // anchor properties, and those kept in the definitions
  std::unique_ptr<EventEncoder> encoder_;
  std::unique_ptr<StateRegionPlan> states_;  // states locations and regions, as States come
  std::vector<LocationId> locationOrder_;    // definition order
  std::unordered_map<LocationId, OTF2_EvtWriter*> evtWriters_;  // nullptr until first event
  LocationId lastLocation_ = kUndefinedId;
  OTF2_EvtWriter* lastWriter_ = nullptr;
  ThreadMessageLosses threadMessages_;
  // A trace from Paraver: the Leave of an MPI call waits for the event after it, to write
  // a send at its time before it (otf2_convention.hpp); one held Leave a location at most.
  bool sendsBeforeLeaves_ = false;
  std::vector<bool> mpiRegion_;
  std::unordered_map<LocationId, Event> heldLeaves_;
  uint64_t written_ = 0;
  uint64_t definitionsWritten_ = 0;  // global definition records, for the read-back check
};

}  // namespace mtf::otf2
