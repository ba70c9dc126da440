// Codes and compresses column chunks on a second thread while compaction goes on: the
// compacting thread only collects each event's context, time and values (RawChunk).
// One worker takes the chunks in the order they were submitted and hands each compressed
// chunk on in that same order, so the output never depends on thread timing. The queue
// is bounded: a producer that runs ahead waits (memory stays bounded).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "compaction/columns.hpp"

namespace mtf::compaction {

// The column rows of one chunk, as the compactor saw them (not coded yet).
struct RawChunk {
  uint64_t firstEvent = 0;
  std::vector<uint32_t> contexts;     // per event
  std::vector<Tick> times;            // per event
  std::vector<uint32_t> valueCounts;  // per event
  std::vector<uint64_t> values;       // all events' values, in order
  size_t size() const { return contexts.size(); }
  // Room for `events` events and `valueCount` values (at most 2^16 events reserved:
  // chunks may be configured larger).
  void reserve(uint64_t events, size_t valueCount) {
    const size_t n = static_cast<size_t>(events < (1u << 16) ? events : (1u << 16));
    contexts.reserve(n);
    times.reserve(n);
    valueCounts.reserve(n);
    values.reserve(valueCount);
  }
  void add(uint32_t context, Tick time, const uint64_t* v, size_t count) {
    contexts.push_back(context);
    times.push_back(time);
    valueCounts.push_back(static_cast<uint32_t>(count));
    for (size_t i = 0; i < count; ++i) values.push_back(v[i]);  // a few: no memmove call
  }
};

class ChunkCompressor {
 public:
  // Receives each compressed chunk, in submission order, on the worker thread.
  using Deliver = std::function<void(LocationId, ColumnChunk&&)>;
  // Chunks are coded with time prediction `timeMode` and deflated at `zlibLevel`.
  ChunkCompressor(Deliver deliver, uint8_t timeMode, int zlibLevel, size_t maxQueued = 8);
  // Stops the worker; chunks not yet delivered are dropped (call finish() to keep them).
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  // Queues a chunk (waits while the queue is full). Rethrows a failure of the worker
  // (e.g. a write error of `deliver`).
  void submit(LocationId location, RawChunk&& chunk);
  // Waits until every submitted chunk has been delivered; rethrows a worker failure.
  void finish();

 private:
  void run();
  void rethrow();

  void encode(const RawChunk& raw, ColumnEncoder& encoder, PendingChunk& pending);

  Deliver deliver_;
  uint8_t timeMode_;
  int zlibLevel_;
  size_t maxQueued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<LocationId, RawChunk>> queue_;
  bool busy_ = false;  // the worker holds a chunk taken from the queue
  bool stop_ = false;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace mtf::compaction
