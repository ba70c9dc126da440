// Compresses finished column chunks on a second thread while compaction goes on.
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

class ChunkCompressor {
 public:
  // Receives each compressed chunk, in submission order, on the worker thread.
  using Deliver = std::function<void(LocationId, ColumnChunk&&)>;
  explicit ChunkCompressor(Deliver deliver, size_t maxQueued = 8);
  // Stops the worker; chunks not yet delivered are dropped (call finish() to keep them).
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  // Queues a chunk (waits while the queue is full). Rethrows a failure of the worker
  // (e.g. a write error of `deliver`).
  void submit(LocationId location, PendingChunk&& chunk);
  // Waits until every submitted chunk has been delivered; rethrows a worker failure.
  void finish();

 private:
  void run();
  void rethrow();

  Deliver deliver_;
  size_t maxQueued_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<LocationId, PendingChunk>> queue_;
  bool busy_ = false;  // the worker holds a chunk taken from the queue
  bool stop_ = false;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace mtf::compaction
