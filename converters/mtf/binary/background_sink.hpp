// Runs a sink on a second thread (an analysis beside the writer, e.g. NLR). Batches of
// events reach it through a bounded queue: a reader's batches (events()) are queued as
// they are, shared and never copied; single events (event()) are copied into batches of
// its own. The sink sees the same events in the same order as if it were called
// directly; begin() and end() run on the caller's thread (end() after the worker has seen
// the last event).
// The queue holds at most batchEvents x maxBatches events. A reader's batches are small
// (they stay in the cache of a sink that works inline), so a sleeping worker is only woken
// once a quarter of that has queued up, not for every batch.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "model/trace_stream.hpp"

namespace mtf::mtfbin {

class BackgroundSink : public TraceSink {
 public:
  explicit BackgroundSink(TraceSink& sink, size_t batchEvents = 4096, size_t maxBatches = 4);
  // The same, owning the sink.
  explicit BackgroundSink(std::unique_ptr<TraceSink> sink, size_t batchEvents = 4096,
                          size_t maxBatches = 4);
  // Stops the worker (events not yet handed on are dropped).
  ~BackgroundSink() override;
  BackgroundSink(const BackgroundSink&) = delete;
  BackgroundSink& operator=(const BackgroundSink&) = delete;

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void events(const SharedEventBatch& batch) override;
  bool prefersBatches() const override { return true; }
  // Hands on the last events, waits for the worker, then calls the sink's end(); a
  // failure of the worker is rethrown here (or by a later event()).
  void end() override;
  LossReport losses() const override { return sink_.losses(); }

 private:
  void run();
  void enqueue(const SharedEventBatch& batch);  // waits while the queue is full
  void stopWorker();

  std::unique_ptr<TraceSink> owned_;  // empty if the caller owns the sink
  TraceSink& sink_;
  size_t maxQueued_;     // events
  size_t wakeAt_;        // events queued before a sleeping worker is woken
  EventBatcher copies_;  // batches of single events, copied
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<SharedEventBatch> queue_;
  size_t queued_ = 0;  // events in queue_
  bool busy_ = false, stop_ = false, ending_ = false, workerAsleep_ = false;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace mtf::mtfbin
