// Codes and compresses column chunks on worker threads while compaction goes on: the
// compacting thread only collects each event's context, time and values (RawChunk).
// Workers (one per core, at most two) take the chunks in the order they were submitted,
// each codes its chunk on its own, the chunks pass the dictionary gate in that order, and
// are handed on in that same order, so the output never depends on thread timing. The
// queue is bounded: a producer that runs ahead waits (memory stays bounded).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "values/column_dictionary.hpp"
#include "values/columns.hpp"

namespace mtf::values {

// The column rows of one chunk, as the compactor saw them (not coded yet). The arrays'
// sizes are the room made (not zero-filled: a chunk makes room for 2^16 events and more);
// their first size() rows and valueCount() values are written. add() writes in place
// after one check for room.
struct RawChunk {
  uint64_t firstEvent = 0;
  NoZeroFillVector<uint32_t> contexts;     // per event
  NoZeroFillVector<Tick> times;            // per event
  NoZeroFillVector<uint32_t> valueCounts;  // per event
  NoZeroFillVector<uint64_t> values;       // all events' values, in order
  RawChunk() = default;
  // A moved-from chunk is empty, like one of vectors.
  RawChunk(RawChunk&& o) noexcept { *this = std::move(o); }
  RawChunk& operator=(RawChunk&& o) noexcept {
    firstEvent = o.firstEvent;
    contexts = std::move(o.contexts);
    times = std::move(o.times);
    valueCounts = std::move(o.valueCounts);
    values = std::move(o.values);
    rows_ = std::exchange(o.rows_, 0);
    valuesUsed_ = std::exchange(o.valuesUsed_, 0);
    return *this;
  }
  size_t size() const { return rows_; }
  size_t valueCount() const { return valuesUsed_; }
  // Room for `events` events and `valueCount` values (at most 2^16 events reserved:
  // chunks may be configured larger).
  void reserve(uint64_t events, size_t valueCount);
  void add(uint32_t context, Tick time, const uint64_t* v, size_t count) {
    if (rows_ == contexts.size() || values.size() - valuesUsed_ < count) [[unlikely]]
      makeRoom(count);
    // In a local: a Tick written to `times` could be rows_ for all the compiler knows.
    const size_t row = rows_++;
    contexts[row] = context;
    times[row] = time;
    valueCounts[row] = static_cast<uint32_t>(count);
    uint64_t* out = values.data() + valuesUsed_;
    for (size_t i = 0; i < count; ++i) out[i] = v[i];  // a few: no memmove call
    valuesUsed_ += count;
  }

 private:
  void reserveRows(size_t n);
  void makeRoom(size_t count);  // room for one more event with `count` values
  size_t rows_ = 0;
  size_t valuesUsed_ = 0;
};

class ChunkCompressor {
 public:
  // Receives each compressed chunk, in submission order, on a worker thread (one call at a
  // time).
  using Deliver = std::function<void(LocationId, ColumnChunk&&)>;
  // Chunks are coded with time prediction `timeMode` and compressed at zstd level `level`;
  // with `deliverDictionary`, with a dictionary if one pays (column_dictionary.hpp), which
  // is handed to it before the first chunk that needs it. `workers`: 0 for one per core,
  // at most two (a trace's reading and compaction keep other threads busy).
  ChunkCompressor(Deliver deliver, uint8_t timeMode, int level, size_t maxQueued = 8,
                  DictionaryGate::DeliverDictionary deliverDictionary = nullptr,
                  unsigned workers = 0);
  // Stops the workers; chunks not yet delivered are dropped (call finish() to keep them).
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  // Queues a chunk (waits while the queue is full). Rethrows a failure of the worker
  // (e.g. a write error of `deliver`).
  void submit(LocationId location, RawChunk&& chunk);
  // Waits until every submitted chunk has been delivered; rethrows a worker failure.
  void finish();

 private:
  struct Queued {
    uint64_t turn;  // its place in submission order
    LocationId location;
    RawChunk raw;
  };
  struct Worker;
  void run();
  void rethrow();
  void passGate(const Queued& item, Worker& worker, std::unique_lock<std::mutex>& lock);
  bool waitForTurn(const uint64_t& turn, uint64_t mine, std::unique_lock<std::mutex>& lock);
  void encode(const RawChunk& raw, ColumnEncoder& encoder, PendingChunk& pending);

  Deliver deliver_;
  uint8_t timeMode_;
  int level_;
  DictionaryGate gate_;  // used by the worker whose turn it is (and by finish() once idle)
  size_t maxQueued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Queued> queue_;
  uint64_t submitted_ = 0;    // chunks submitted
  uint64_t gateTurn_ = 0;     // the next chunk to pass the gate
  uint64_t deliverTurn_ = 0;  // the next chunk to deliver once the gate holds none
  size_t busy_ = 0;           // workers holding a chunk taken from the queue
  bool stop_ = false;
  std::exception_ptr failure_;
  std::vector<std::thread> workers_;
};

}  // namespace mtf::values
