// Decompaction: expands a CompactModel (DAG + value columns) back into the exact
// events, location by location, streaming (one column chunk in memory at a time).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "compaction/compact_model.hpp"
#include "compaction/cut_prefix.hpp"
#include "model/trace_stream.hpp"

namespace mtf::compaction {

class FlatExpansions;

// Supplies chunk `chunkIndex` of location `locationIndex` (the binary reader loads it
// from disk). Without a loader the chunks in the model are used. Called from several
// threads at once when the expansion has lanes (ExpandOptions::lanes).
using ChunkLoader = std::function<ColumnChunk(size_t locationIndex, size_t chunkIndex)>;

struct TimeWindow {
  Tick from = 0;
  Tick to = ~Tick{0};  // inclusive
  bool all() const { return from == 0 && to == ~Tick{0}; }
};

struct ExpandOptions {
  std::string sourceName;  // named in errors (the file path)
  TimeWindow window;       // only events with from <= time <= to
  ChunkLoader loader;      // see ChunkLoader
  // With a window and a prefix sink: what the column chunks that end before
  // `window.from` leave for a cut at `from` (cut_prefix.hpp), from the DAG alone (their
  // chunks are not loaded): the calls and the collective open at their end come as Enter
  // and MpiCollectiveBegin events (values 0) at `from - 1`, their messages as counts to
  // `prefix`; the events before `from` of the chunk that holds it come whole.
  PrefixSink* prefix = nullptr;
  // The model's flat node expansions (expander.hpp), if made: faster, same events.
  // ModelSource makes them.
  const FlatExpansions* flat = nullptr;
  // ModelSource: threads that decode column chunks at once (expansion_lanes.hpp); 0: one
  // per core (at most 4). The sink sees the same events in the same order whatever it is.
  size_t lanes = 0;
};

// Streams the events of location `locationIndex` into `sink` (event() calls only).
// Throws InputError (place "location L, event N") if the columns disagree with the DAG.
void expandLocation(const CompactModel& model, size_t locationIndex, const ExpandOptions& options,
                    TraceSink& sink);

// A TraceSource over a model: begin(definitions), every location's events (location
// after location, in the model's order), end(). Column chunks are decoded on
// ExpandOptions::lanes threads; only the calling thread calls the sink.
class ModelSource : public TraceSource {
 public:
  ModelSource(std::shared_ptr<const CompactModel> model, ExpandOptions options = {});
  const Definitions& definitions() override { return model_->definitions; }
  void read(TraceSink& sink) override;
  // Only these locations (empty: all).
  void selectLocations(std::vector<LocationId> ids) { selected_ = std::move(ids); }

 private:
  std::shared_ptr<const CompactModel> model_;
  ExpandOptions options_;
  std::vector<LocationId> selected_;
};

}  // namespace mtf::compaction
