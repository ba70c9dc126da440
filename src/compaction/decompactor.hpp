// Decompaction: expands a CompactModel (DAG + value columns) back into the exact
// events, location by location, streaming (one column chunk in memory at a time).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "compaction/compact_model.hpp"
#include "model/trace_stream.hpp"

namespace mtf::compaction {

// Supplies chunk `chunkIndex` of location `locationIndex` (the binary reader loads it
// from disk). Without a loader the chunks in the model are used.
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
  // With a window: the events of the column chunks that end before `window.from` that
  // shape a cut at `from` (calls, collectives, messages: filter/time_window.hpp) come
  // too, with their structural fields only (values 0) and their chunk's first time,
  // walked from the DAG without loading their chunks; events before `from` in the chunk
  // that holds `from` come whole.
  bool structureBefore = false;
};

// Streams the events of location `locationIndex` into `sink` (event() calls only).
// Throws InputError (place "location L, event N") if the columns disagree with the DAG.
void expandLocation(const CompactModel& model, size_t locationIndex, const ExpandOptions& options,
                    TraceSink& sink);

// A TraceSource over a model: begin(definitions), every location's events, end().
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
