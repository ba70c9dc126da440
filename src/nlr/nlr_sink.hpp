// The NLR stage of the pipeline: a TraceSink running one recognizer per location.
// Events of different locations may be interleaved; each location has its own state
// (open regions, signature table, window), so memory is the windows plus the models.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/event_batch.hpp"
#include "model/trace_stream.hpp"
#include "nlr/communication_stream.hpp"
#include "nlr/nlr.hpp"
#include "nlr/signature.hpp"

namespace mtf::nlr {

struct LocationLoops {
  LocationId location = 0;
  std::string name;
  int64_t worldRank = -1;   // -1: not an MPI rank
  uint64_t eventsRead = 0;  // events of the location, selected or not
  LoopModel model;
};

class NlrSink : public TraceSink {
 public:
  NlrSink(const NlrOptions& nlr, const SignatureOptions& signatures,
          std::optional<LocationId> onlyLocation = std::nullopt);
  ~NlrSink() override;

  // Before begin(), with the stored view (storedSignatureOptions(): every event, trace
  // order): also derives each location's communication stream from its symbols and runs
  // NLR over it (communication_stream.hpp); derivedResults() gives those nests.
  void deriveCommunicationStream();

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override { eventsOf(*batch); }
  // The events of `batch`: each run of one location's events is turned into symbols, then
  // pushed, stage by stage (no call per event, the state looked up once per run).
  void eventsOf(const EventBatch& batch);
  void end() override;  // releases the events held for canonical order

  // One entry per location that had events, in the order of the location definitions
  // (locations without a definition last, by id).
  std::vector<LocationLoops> results() const;
  // The same with the derived communication nests (deriveCommunicationStream()): equal to
  // results() of an NlrSink with communicationInCallOrder() over the same events.
  std::vector<LocationLoops> derivedResults() const;
  const Definitions& definitions() const { return defs_; }
  // Bytes of working state (windows and indexes) over all locations, models excluded.
  size_t workingBytes() const;

 private:
  struct LocationState;
  // Events come in runs of one location: the last location's state is checked inline,
  // any other is looked up out of line.
  LocationState& stateOf(LocationId location) {
    if (lastState_ && lastLocation_ == location) [[likely]]
      return *lastState_;
    return switchTo(location);
  }
  LocationState& switchTo(LocationId location);
  void pushRun(LocationState& state, std::span<const Event> run);
  std::vector<LocationLoops> resultsOf(bool derived) const;

  NlrOptions nlrOptions_;
  SignatureOptions signatureOptions_;
  std::optional<LocationId> onlyLocation_;
  bool deriveCommunication_ = false;
  Definitions defs_;
  std::unique_ptr<SignatureContext> ranks_;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> states_;
  // Small ids (the usual 0..N-1) index the states directly: traces ordered by time switch
  // location at almost every event.
  static constexpr LocationId kDenseIds = LocationId{1} << 16;
  std::vector<LocationState*> byDenseId_;
  LocationState* lastState_ = nullptr;
  LocationId lastLocation_ = kUndefinedId;
  std::vector<uint32_t> runSymbols_;  // the symbols of the run being pushed (batch-sized)
};

// An NlrSink that asks for batches: NLR works on each location apart, so the OTF2 reader
// may read on two lanes while NLR runs (as `mtf loops`, `mtf model` and mtf-mpi do).
class BatchedNlrSink : public TraceSink {
 public:
  explicit BatchedNlrSink(NlrSink& inner) : inner_(inner) {}
  void begin(const Definitions& d) override { inner_.begin(d); }
  void event(const Event& e) override { inner_.event(e); }
  void events(const SharedEventBatch& batch) override { inner_.events(batch); }
  bool prefersBatches() const override { return true; }
  void end() override { inner_.end(); }

 private:
  NlrSink& inner_;
};

}  // namespace mtf::nlr
