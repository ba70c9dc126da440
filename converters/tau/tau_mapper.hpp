// Turns TAU records, in file order, into model events. TriggerValue triplets (0, value, 0)
// collapse into one Metric event; since a triplet is only known once its third record is
// seen, every record takes a slot in an output queue and events leave the queue in file
// order. So the merged file's time order survives (a Metric takes the time of its
// triplet's first record) and nothing but a few records is ever held.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>

#include "converters/tau/tau_model.hpp"
#include "model/event.hpp"
#include "model/trace_stream.hpp"

namespace mtf::tau {

class RecordMapper {
 public:
  RecordMapper(const TraceModel& model, TraceSink& sink) : model_(model), sink_(sink) {}
  // One record of `location` whose event id translates to `t`.
  void push(const Translation& t, LocationId location, const Record& r);
  // Emits whatever is still pending (call at the end of a file).
  void finish();
  uint64_t eventsEmitted() const { return emitted_; }
  uint64_t tripletsCollapsed() const { return triplets_; }

 private:
  enum class SlotState : uint8_t { Pending, Ready, Skip };
  struct Slot {
    SlotState state = SlotState::Pending;
    Event event;
  };
  // Up to two records of an unfinished triplet of one location.
  struct OpenTrigger {
    int count = 0;
    Ref metric = kUndefinedRef;
    Record records[2];
    uint64_t slots[2] = {0, 0};
  };

  uint64_t newSlot();
  Slot& slot(uint64_t seq) { return queue_[seq - firstSeq_]; }
  void release();
  void feedTrigger(Ref metric, LocationId location, const Record& r, uint64_t seq);
  void flushOpen(LocationId location, OpenTrigger& open);
  void emitSingle(Ref metric, LocationId location, const Record& r, uint64_t seq);
  void emitTriplet(LocationId location, const OpenTrigger& open, const Record& last,
                   uint64_t lastSeq);
  void emitPlain(const Translation& t, LocationId location, const Record& r, uint64_t seq);
  void fillPlain(Event& e, const Translation& t, LocationId location, const Record& r) const;
  void setMetric(Event& e, Ref metric, LocationId location, const Record& r);

  const TraceModel& model_;
  TraceSink& sink_;
  std::deque<Slot> queue_;
  std::deque<Slot> spare_;  // recycled slots keep their vectors' capacity
  uint64_t firstSeq_ = 0;
  uint64_t nextSeq_ = 0;
  std::unordered_map<LocationId, OpenTrigger> open_;
  uint64_t emitted_ = 0;
  uint64_t triplets_ = 0;
  Event direct_;  // the event of the fast path, reused
};

}  // namespace mtf::tau
