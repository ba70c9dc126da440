// Compaction as a pipeline stage: a TraceSink that turns the event stream into a
// CompactModel (DAG + value columns), streaming. Per location it keeps only the stack
// of open calls with their (already folded) child lists and the column chunk being
// filled; finished column chunks go to a ChunkSink (a writer streams them to disk) or
// into the model.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <unordered_map>

#include "compaction/compact_model.hpp"
#include "compaction/dag_builder.hpp"
#include "compaction/event_split.hpp"
#include "compaction/recent_pair.hpp"
#include "model/nesting_check.hpp"
#include "model/trace_stream.hpp"
#include "values/chunk_compressor.hpp"
#include "values/columns.hpp"

namespace mtf::compaction {

struct CompactorOptions {
  // Events per column chunk (the unit of random access); at most kMaxChunkEvents.
  uint64_t chunkEvents = 1 << 16;
  // The zstd level of the value columns (values/columns.hpp). 15, not 19: over the 17 real
  // traces the archives are 0.46% larger in total (0.16% in geometric mean), for 40% less
  // CPU on casita-jacobi-gpu and 22% less on the 1,024-rank wavefront (levels 16-19 search
  // with zstd's optimal parsers, several times slower for a few bytes).
  int level = 15;
  uint8_t timePrediction = 1;  // columns.hpp: 0 previous delta, 1 running average
  // With a chunk sink: compress chunks on a second thread (chunk_compressor.hpp); the
  // sink is then called on that thread, in the same order and with the same bytes.
  bool backgroundCompression = true;
  // Events held in unfinished chunks, all locations together. Past it, every location's
  // chunk is finished early: chunks get shorter, memory stays bounded whatever the number
  // of locations (each holds ~24 bytes per buffered event).
  uint64_t bufferedEventBudget = uint64_t{1} << 22;
  // With a chunk sink and background compression: a column dictionary if it pays
  // (values/column_dictionary.hpp); handed to the dictionary sink, and kept in the model.
  bool columnDictionary = true;
  // If set, filled at end() with every location's enter/leave nesting (the counts a
  // NestingCheck fed the same events gives), which compaction follows anyway: `mtf
  // convert` then checks it no second time.
  NestingCheck* nesting = nullptr;
};
// Receives the column dictionary, before the first chunk that needs it.
using DictionarySink = std::function<void(const values::ZstdDictionary&)>;

// Receives each finished column chunk of a location, in event order per location (and in
// the order the chunks were finished), possibly on the compression thread.
using ChunkSink = std::function<void(LocationId, ColumnChunk&&)>;

class Compactor : public TraceSink {
 public:
  // Without a chunk sink, chunks are kept in model().locations[i].columns.
  explicit Compactor(CompactorOptions options = {}, ChunkSink chunkSink = nullptr,
                     DictionarySink dictionarySink = nullptr);
  ~Compactor() override;

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override;
  void end() override;

  // The model (complete after end()).
  CompactModel& model() { return model_; }

 private:
  struct OpenCall {
    SigId enter = kNoSig;
    Ref region = kUndefinedRef;
    uint64_t regionField = 0;  // the Enter's first field, as NestingCheck compares it
    ChildList children;
  };
  struct LocationState {
    LocationId id = 0;
    // stack[0]: the location's top level; stack[1..depth) the open calls. Entries past
    // the depth are kept for their children's capacity (no allocation per call).
    std::vector<OpenCall> stack;
    size_t depth = 1;
    SigId lastSig = kNoSig;                  // signature of the location's previous event
    std::unique_ptr<ColumnEncoder> encoder;  // without background compression
    RawChunk raw;                            // with it
    uint64_t chunkStart = 0;                 // first event of the chunk being filled
    NestingSummary nesting;                  // callsNeverLeft set by finishLocation
  };

  LocationState& stateOf(LocationId id) {
    if (last_ && last_->id == id) [[likely]]
      return *last_;
    return switchLocation(id);
  }
  LocationState& switchLocation(LocationId id);  // makes `id` the current location
  void handle(const Event& e);                   // what event() does
  void record(LocationState& s, uint32_t context, Tick time);
  void encodeRow(LocationState& s, uint32_t context, Tick time);  // without background compression
  void flushChunk(LocationState& s);
  // Events of the location's chunk being filled (counted by the chunk, not per event).
  uint64_t eventsInChunk(const LocationState& s) const {
    return compressor_ ? s.raw.size() : s.encoder->events();
  }
  uint64_t chunkReserve(size_t locations) const;
  void flushAllChunks();
  void finishLocation(LocationState& s);
  SigId signatureOf(LocationState& s, const Event& e);  // fills scratchValues_
  SigId knownRegionSig(const Event& e) const;
  void rememberRegionSig(const Event& e, SigId sig);
  SigId predictedSig(const LocationState& s, const Event& e);  // fills scratchValues_
  SigId internEvent(const LocationState& s, const Event& e);   // fills scratchValues_
  void closeCall(LocationState& s, SigId leave);
  static void checkLeave(LocationState& s, const Event& e);  // counts a mismatched Leave

  CompactorOptions options_;
  ChunkSink chunkSink_;
  DictionarySink dictionarySink_;
  std::unique_ptr<ChunkCompressor> compressor_;  // with a sink and background compression
  CompactModel model_;
  std::unique_ptr<DagBuilder> dag_;
  std::unique_ptr<OwnRanks> ranks_;
  std::unordered_map<LocationId, size_t> stateIndex_;
  std::vector<std::unique_ptr<LocationState>> states_;
  LocationState* last_ = nullptr;  // the location of the previous event (fast path)
  Signature scratchSig_;
  // The two signatures that followed one signature lately (tried before splitting and
  // hashing: in loops, the next signature is nearly always one of them).
  using Successors = RecentPair<SigId, kNoSig>;
  std::vector<Successors> nextSig_;      // indexed by SigId
  std::vector<uint64_t> scratchValues_;  // the event's values: the first scratchValueCount_
  size_t scratchValueCount_ = 0;
  std::array<std::vector<SigId>, 2> regionSig_;  // [Enter, Leave][region]: see knownRegionSig
  Tick lastTime_ = 0;                            // time of the Leave closeCall records
  // bufferedEventBudget + 1 - the events in unfinished chunks (all locations): a count
  // down, checked for 0 (budget exceeded) with the decrement. Modulo 2^64 like the counts,
  // so a budget of 2^64 - 1 (none) still works: it never comes down to 0.
  uint64_t budgetLeft_;
};

// Context number of an event for the column predictors (see columns.hpp).
inline uint32_t enterContext(SigId sig) {
  return sig * 2;
}
inline uint32_t nodeContext(NodeId node) {
  return node * 2 + 1;
}

}  // namespace mtf::compaction
