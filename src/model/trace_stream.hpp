// Sources and sinks of the pipeline (babeltrace2-style): a reader is a TraceSource,
// a writer or an analysis is a TraceSink, and `pump` joins them. Nothing here holds
// the whole trace: events flow one at a time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"
#include "model/event_batch.hpp"
#include "model/event_block.hpp"

namespace mtf {

// Counts of things a stage could not carry, by description ("Paraver state records",
// "OTF2 events of unknown kind", ...). Empty means nothing was lost.
using LossReport = std::map<std::string, uint64_t>;

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // Called once, before any event, with the complete definitions.
  virtual void begin(const Definitions& defs) = 0;
  // Events of one location arrive in time order; events of different locations may be
  // interleaved (a Paraver reader) or come location after location (an OTF2 reader).
  virtual void event(const Event& e) = 0;
  // Consecutive events at once (readers that batch, model/event_batch.hpp): the same as
  // event() on each in order, which is the default. A sink may keep the batch (it is
  // immutable and shared) instead of copying its events.
  virtual void events(const SharedEventBatch& batch) {
    for (size_t i = 0; i < batch->size; ++i) event(batch->events[i]);
  }
  // True if this sink gains from batches (it keeps them to work on another thread, or
  // hands them to such a sink). A batching reader then hands on batches; otherwise single
  // events, each processed while it is still in the processor's cache.
  virtual bool prefersBatches() const { return false; }
  // Consecutive events of one location as a decoder holds them (model/event_block.hpp):
  // the same as event() on each in order, which is the default. Called only if
  // takesEventBlocks(); a sink that reads the blocks' shapes and times (not the whole
  // events) saves the decoder building every event.
  virtual void eventBlock(const EventBlock& block) {
    for (size_t i = 0; i < block.size(); ++i) event(block.event(i));
  }
  virtual bool takesEventBlocks() const { return false; }
  // Asked after begin() by a reader that can hand on every event in global time order
  // (events of equal time in the definitions' order of their locations), at some cost:
  // true if this sink gains from that (the Paraver writer then writes without sorting
  // the whole trace); the reader then does so. False: events come in the reader's order.
  virtual bool takeTimeOrder() { return false; }
  // Called once after the last event: the sink finishes (and commits its output).
  virtual void end() = 0;
  // What this sink had to drop because its format cannot hold it.
  virtual LossReport losses() const { return {}; }
};

enum class EventOrder : uint8_t { ByLocation, ByTime };

struct ReadOptions {
  bool lenient = false;   // skip bad records (counted in unmodelled()) instead of failing
  bool progress = false;  // report progress on stderr
  // Refuse (InputError) records the format's own tool reads but mtf cannot keep as they
  // are, instead of skipping them with one warning per kind (convert --strict).
  bool strict = false;
};

class TraceSource {
 public:
  virtual ~TraceSource() = default;
  // Reads the definitions (cheap, no events). Throws InputError on bad input.
  virtual const Definitions& definitions() = 0;
  // Streams every event into `sink`: begin(defs), event()*, end().
  virtual void read(TraceSink& sink) = 0;
  virtual EventOrder order() const { return EventOrder::ByLocation; }
  // What the input held that the model does not represent, counted (filled by read()).
  virtual LossReport unmodelled() const { return {}; }
  // The input's own records counted by their own kind, e.g. {"state records": 120,
  // "communication records": 40} for Paraver (filled by read()); `mtf info` prints it
  // so users can check every record of the file was seen. Empty if not meaningful.
  virtual std::map<std::string, uint64_t> inputRecords() const { return {}; }
  // Reads only the events of `ids` (non-empty) from now on, without opening what holds
  // the others (OTF2 event files, TAU thread files, MTF column chunks), and returns true;
  // false if this reader cannot (it then reads every event). For mtf-mpi's shares.
  virtual bool restrictToLocations(const std::vector<LocationId>& ids) {
    (void)ids;
    return false;
  }
  // Events per location, counted or estimated (from the declared counts or the sizes of
  // per-location files) without reading the events; locations left out are unknown. For
  // balancing the work by events rather than by locations.
  virtual std::map<LocationId, uint64_t> eventEstimates() { return {}; }
};

// Fans events out to several sinks (e.g. a writer and a statistics collector).
class TeeSink : public TraceSink {
 public:
  explicit TeeSink(std::initializer_list<TraceSink*> sinks) : sinks_(sinks) {}
  explicit TeeSink(std::vector<TraceSink*> sinks) : sinks_(std::move(sinks)) {}
  void begin(const Definitions& d) override {
    for (auto* s : sinks_) s->begin(d);
  }
  void event(const Event& e) override {
    for (auto* s : sinks_) s->event(e);
  }
  void events(const SharedEventBatch& batch) override {
    for (auto* s : sinks_) s->events(batch);
  }
  bool prefersBatches() const override {
    for (auto* s : sinks_)
      if (s->prefersBatches()) return true;
    return false;
  }
  bool takeTimeOrder() override {  // every sink accepts interleaved locations
    bool any = false;
    for (auto* s : sinks_) any = s->takeTimeOrder() || any;
    return any;
  }
  void end() override {
    for (auto* s : sinks_) s->end();
  }

 private:
  std::vector<TraceSink*> sinks_;
};

}  // namespace mtf
