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

// An output of expandChunk that hands each event straight to a sink: the event is joined
// in its plan's own event (joinInPlace), which only needs its time and values written.
struct SinkOutput {
  explicit SinkOutput(TraceSink& s) : sink(s) {}
  void put(LocationJoiner& joiner, JoinPlan& plan, const uint64_t* values, Tick time) {
    sink.event(joiner.joinInPlace(plan, values, time));
  }
  TraceSink& sink;
};

class LocationExpansion {
 public:
  static constexpr size_t kBlockEvents = 512;
  // `joiner`: the location's join plans, kept by the caller (whose plans must outlive this
  // object: expansion_lanes.cpp), or nullptr for plans of its own.
  LocationExpansion(const CompactModel& model, size_t index, const ExpandOptions& options,
                    LocationJoiner* joiner = nullptr);
  size_t index() const { return index_; }
  // Every event of the location in the window (and, with a prefix sink, what the chunks
  // before it leave open: ExpandOptions::prefix) into `sink`.
  void run(TraceSink& sink);
  // The events in the window of column chunk `c` into `out`, each by
  // out.put(joiner, plan, values, time). Chunks come in increasing order (the expander only moves
  // on). Throws InputError (place "location L, event N") if the columns disagree with the DAG.
  template <class Output>
  void expandChunk(size_t c, Output& out);

 private:
  void skipTo(uint64_t event);
  void skipToWindow(uint64_t event, TraceSink& sink);
  void emitPrefix(const CutEffect& effect, Tick at, TraceSink& sink);
  // Chunk `c` with its encoded bytes (from the loader, or the model's own).
  const ColumnChunk& chunk(size_t c);
  // The next n steps of the walk, their plans, contexts and value counts; returns the
  // number of values. `walked`: the steps there were (fewer than n if the DAG ends).
  size_t prepareBlock(size_t n, size_t& walked);
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
  std::array<JoinPlan*, kBlockEvents> plans_;
  std::array<uint32_t, kBlockEvents> contexts_, counts_;
  std::array<Tick, kBlockEvents> times_;
  std::vector<uint64_t> values_;
};

template <class Output>
void LocationExpansion::expandChunk(size_t c, Output& out) {
  const ColumnChunk& meta = location_.columns[c];
  skipTo(meta.firstEvent);
  uint64_t at = meta.firstEvent;  // the event an error names
  try {
    values::ColumnDecoder decoder(chunk(c), model_.columnDictionary.get());
    const TimeWindow window = options_.window;
    const bool keepEarly = options_.prefix != nullptr;
    for (uint64_t done = 0; done < meta.eventCount;) {
      const size_t n =
          static_cast<size_t>(std::min<uint64_t>(kBlockEvents, meta.eventCount - done));
      size_t walked = 0;
      prepareBlock(n, walked);
      at = meta.firstEvent + done + walked;
      if (walked < n) throw CodingError{0, "the DAG ends before the columns"};
      try {
        decoder.nextEvents(contexts_.data(), counts_.data(), n, times_.data(), values_.data());
      } catch (const CodingError&) {
        at = meta.firstEvent + decoder.decodedEvents();
        throw;
      }
      const uint64_t* values = values_.data();
      for (size_t i = 0; i < n; values += counts_[i], ++i) {
        const Tick time = times_[i];
        if ((time < window.from && !keepEarly) || time > window.to) continue;
        out.put(joiner_, *plans_[i], values, time);
      }
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
