// The OTF2 reader: an OTF2 archive (anchor file or its directory) as a TraceSource.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <unordered_set>

#include "converters/otf2/otf2_common.hpp"
#include "converters/otf2/otf2_convention.hpp"
#include "converters/otf2/otf2_event_reading.hpp"
#include "model/trace_stream.hpp"

namespace mtf::otf2 {

class Otf2Reader : public TraceSource {
 public:
  // Opens the archive (throws InputError naming the path if it is not one).
  Otf2Reader(const std::filesystem::path& input, const ReadOptions& options);
  ~Otf2Reader() override;

  // Every global definition, the clock properties, creator, version and the archive
  // properties "MTF::<key>" (into info.properties).
  const Definitions& definitions() override;
  // Streams every event location after location (definition order); memory does not
  // grow with the number of events. A sink that takes time order (TraceSink::
  // takeTimeOrder) gets every event in global time order instead (readInTimeOrder). A sink that
  // prefers batches gets them from two lanes read at once (see readInLanes): each location's events
  // still come in order, but the two halves of the locations are interleaved, a bundle of batches
  // at a time.
  void read(TraceSink& sink) override;
  EventOrder order() const override { return EventOrder::ByLocation; }
  // Reads only the events of these locations (their event files alone are opened); empty:
  // every location. For analyzers that ask for some locations (the public API).
  void selectLocations(std::vector<LocationId> ids) { selected_ = std::move(ids); }
  bool restrictToLocations(const std::vector<LocationId>& ids) override {
    selectLocations(ids);
    return true;
  }
  // The locations' declared event counts; where one is 0, the sizes of the event files
  // (in bytes: proportional to the events of a location, their records being alike).
  std::map<LocationId, uint64_t> eventEstimates() override;
  LossReport unmodelled() const override { return losses_; }
  // What definitions() warned about on stderr (e.g. the anchor's counts disagree with the
  // definitions file), one line each without the "mtf: warning: " prefix.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  void readInfo();
  void readProperties();
  void readGlobalDefinitions();
  void restoreProperties();
  void checkDeclaredCounts(uint64_t definitionsRead);
  // A reading lane: some of the locations, read through one reader handle on one thread.
  struct Lane {
    OTF2_Reader* reader;
    std::vector<OTF2_LocationRef> locations;
    EventReadState state = {};
    LossReport losses = {};
    // Locations whose local definitions hold mapping tables or clock offsets: the library
    // must apply them to the events. For every other location it is told not to look
    // (it would look the location up for every event: 13% of a bare read's instructions).
    std::unordered_set<OTF2_LocationRef> mappedLocations = {};
  };
  void readLocalDefinitions(Lane& lane);
  void readLocationEvents(Lane& lane, OTF2_LocationRef location,
                          OTF2_EvtReaderCallbacks* callbacks);
  // The event reader of `location`, its callbacks given `state` (throws if it has none).
  OTF2_EvtReader* openEvtReader(Lane& lane, OTF2_LocationRef location,
                                OTF2_EvtReaderCallbacks* callbacks, EventReadState& state);
  void useConvention(EventReadState& state) const;
  // Global time order (otf2_time_order.cpp): every location's event reader open at once,
  // a bounded buffer of read-ahead events each, merged by a heap. Not for archives with
  // states locations (their States go back among the owner's events by position), nor
  // for more locations than the process may open files.
  bool canReadInTimeOrder(const std::vector<OTF2_LocationRef>& locations) const;
  void readInTimeOrder(const std::vector<OTF2_LocationRef>& locations, TraceSink& sink,
                       Progress& progress);
  // Reads `owner`'s events with the States of its states location put back among them.
  OTF2_ErrorCode readWithStates(Lane& lane, OTF2_EvtReader* owner, OTF2_LocationRef ownerLocation,
                                uint64_t& records);
  void readLane(Lane& lane);
  void readInLanes(const std::vector<OTF2_LocationRef>& locations, TraceSink& sink,
                   Progress& progress);
  size_t splitLocations(const std::vector<OTF2_LocationRef>& locations) const;
  // A location's event file, relative to the anchor's folder ("traces/0.evt").
  std::string eventFileName(OTF2_LocationRef location) const;
  // True if the location's local definitions file is there and holds no record.
  bool holdsNoLocalDefinitions(OTF2_LocationRef location) const;
  // The size of a location's event file, if it can be sized.
  std::optional<uintmax_t> eventFileBytes(OTF2_LocationRef location) const;
  void mergeLosses(const LossReport& losses);
  void fail(const std::string& place, OTF2_ErrorCode code) const;

  std::filesystem::path input_;
  std::filesystem::path anchor_;
  ReadOptions options_;
  ReaderHandle reader_;
  Definitions defs_;
  bool defsRead_ = false;
  ConventionRefs convention_;  // definitions that carry State / Generic events
  StateLocations states_;      // locations that carry States as regions
  LossReport losses_;
  std::string storedProperties_;  // the anchor's pointer to properties kept as definitions
  std::vector<std::string> warnings_;
  std::vector<LocationId> selected_;  // selectLocations(); empty: every location
};

}  // namespace mtf::otf2
