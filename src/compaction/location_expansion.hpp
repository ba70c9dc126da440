// The events of one location, rebuilt from its DAG walk and its column chunks a block of
// events at a time: the expander lists the block's steps (replaying flat node
// expansions), the column decoder decodes their times and values in one loop, and each
// event is joined by its signature's plan (event_split.hpp). Used by the decompactor,
// on one thread or on several (expansion_lanes.hpp): one object per location and thread.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "compaction/decompactor.hpp"
#include "compaction/event_split.hpp"
#include "compaction/expander.hpp"
#include "util/error.hpp"
#include "values/columns.hpp"

namespace mtf::compaction {

// A block of decoded events, in order: each event's join plan, shape (the plan's own
// event, model/event_block.hpp) and time, and their values one after the other
// (plans[i]->valueCount each, event i's from valueAt[i]). expandChunk decodes straight into
// the block its output gives it; the lanes (expansion_lanes.cpp) hand that block itself to
// the calling thread, no event copied.
struct DecodedBlock {
  static constexpr size_t kEvents = 512;
  std::array<JoinPlan*, kEvents> plans;
  std::array<const Event*, kEvents> shapes;
  std::array<size_t, kEvents> valueAt;
  std::array<Tick, kEvents> times;
  std::vector<uint64_t> values;  // grown as needed, never shrunk: no allocation once warm
  size_t size = 0;
};

// A decoded block as a sink's EventBlock: event(i) joins event i into its plan's own event.
class JoinedBlock final : public EventBlock {
 public:
  JoinedBlock(const DecodedBlock& block, OwnRanks& ranks)
      : EventBlock(block.shapes.data(), block.times.data(), block.size),
        block_(block),
        ranks_(ranks) {}
  const Event& event(size_t i) const override {
    return joinInPlace(*block_.plans[i], block_.values.data() + block_.valueAt[i], block_.times[i],
                       ranks_);
  }

 private:
  const DecodedBlock& block_;
  OwnRanks& ranks_;
};

// How deliverBlock hands a block's events on: those in the window (with `keepEarly`, also
// those before it), each joined (joinInPlace with the calling thread's `ranks`) and given to
// sink.event(), or, when every event passes (no window) and the sink takes them, the block
// whole to sink.eventBlock().
struct BlockDelivery {
  BlockDelivery(TraceSink& sink, const TimeWindow& window, bool keepEarly, OwnRanks& ranks)
      : sink(sink),
        from(keepEarly ? 0 : window.from),
        to(window.to),
        wholeBlocks(sink.takesEventBlocks() && from == 0 && to == ~Tick{0}),
        ranks(ranks) {}
  TraceSink& sink;
  const Tick from, to;
  const bool wholeBlocks;
  OwnRanks& ranks;
};

inline void deliverBlock(const DecodedBlock& block, const BlockDelivery& how) {
  if (how.wholeBlocks) {
    how.sink.eventBlock(JoinedBlock(block, how.ranks));
    return;
  }
  const uint64_t* values = block.values.data();
  for (size_t i = 0; i < block.size; ++i) {
    JoinPlan& plan = *block.plans[i];
    const Tick time = block.times[i];
    if (time >= how.from && time <= how.to) [[likely]]
      how.sink.event(joinInPlace(plan, values, time, how.ranks));
    values += plan.valueCount;
  }
}

// An output of expandChunk that hands each block's events straight to a sink.
class SinkOutput {
 public:
  SinkOutput(TraceSink& sink, const ExpandOptions& options)
      : sink_(sink), window_(options.window), keepEarly_(options.prefix != nullptr) {}
  DecodedBlock& block() { return block_; }
  void hand(DecodedBlock& block, LocationJoiner& joiner) {
    deliverBlock(block, BlockDelivery(sink_, window_, keepEarly_, joiner.ranks()));
  }

 private:
  TraceSink& sink_;
  const TimeWindow window_;
  const bool keepEarly_;
  DecodedBlock block_;
};

class LocationExpansion {
 public:
  static constexpr size_t kBlockEvents = DecodedBlock::kEvents;
  // `joiner`: the location's join plans, kept by the caller (whose plans must outlive this
  // object: expansion_lanes.cpp), or nullptr for plans of its own.
  LocationExpansion(const CompactModel& model, size_t index, const ExpandOptions& options,
                    LocationJoiner* joiner = nullptr);
  size_t index() const { return index_; }
  // Every event of the location in the window (and, with a prefix sink, what the chunks
  // before it leave open: ExpandOptions::prefix) into `sink`.
  void run(TraceSink& sink);
  // The events of column chunk `c` into `out`, a block at a time: decoded into
  // out.block(), then out.hand(block, joiner) (which keeps those in the window). Chunks come
  // in increasing order (the expander only moves on). Throws InputError (place "location L, event
  // N") if the columns disagree with the DAG.
  template <class Output>
  void expandChunk(size_t c, Output& out);

 private:
  void skipTo(uint64_t event);
  void skipToWindow(uint64_t event, TraceSink& sink);
  void emitPrefix(const CutEffect& effect, Tick at, TraceSink& sink);
  // Chunk `c` with its encoded bytes (from the loader, or the model's own).
  const ColumnChunk& chunk(size_t c);
  // The next n steps of the walk: their plans into block.plans, their contexts and value
  // counts, room for their values in block.values; returns the steps there were (fewer
  // than n if the DAG ends).
  size_t prepareBlock(size_t n, DecodedBlock& block);
  [[noreturn]] void fail(size_t c, uint64_t event, const std::string& what) const;

  const CompactModel& model_;
  const LocationModel& location_;
  size_t index_;
  const ExpandOptions& options_;
  std::unique_ptr<LocationJoiner> ownJoiner_;  // without a joiner given
  LocationJoiner& joiner_;
  Expander expander_;
  uint64_t position_ = 0;  // events the expander has passed
  bool prefixDone_ = false;
  CutEffect effect_;  // what the events before the window leave open (with a prefix sink)
  ColumnChunk loaded_;
  std::array<ExpansionStep, kBlockEvents> steps_;
  std::array<uint32_t, kBlockEvents> contexts_, counts_;
  std::vector<uint64_t> zeros_;  // emitPrefix's values
};

template <class Output>
void LocationExpansion::expandChunk(size_t c, Output& out) {
  const ColumnChunk& meta = location_.columns[c];
  skipTo(meta.firstEvent);
  uint64_t at = meta.firstEvent;  // the event an error names
  try {
    values::ColumnDecoder decoder(chunk(c), model_.columnDictionary.get());
    for (uint64_t done = 0; done < meta.eventCount;) {
      const size_t n =
          static_cast<size_t>(std::min<uint64_t>(kBlockEvents, meta.eventCount - done));
      DecodedBlock& block = out.block();
      block.size = 0;
      const size_t walked = prepareBlock(n, block);
      at = meta.firstEvent + done + walked;
      if (walked < n) throw CodingError{0, "the DAG ends before the columns"};
      try {
        decoder.nextEvents(contexts_.data(), counts_.data(), n, block.times.data(),
                           block.values.data());
      } catch (const CodingError&) {
        at = meta.firstEvent + decoder.decodedEvents();
        throw;
      }
      block.size = n;
      out.hand(block, joiner_);
      done += n;
    }
    at = meta.firstEvent + meta.eventCount;
    if (!decoder.finished()) throw CodingError{0, "column chunk holds more values than its events"};
  } catch (const CodingError& e) {
    fail(c, at, e.what);
  }
  position_ = meta.firstEvent + meta.eventCount;
}

}  // namespace mtf::compaction
