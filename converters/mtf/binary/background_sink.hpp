// Runs a sink on a second thread (an analysis beside the writer, e.g. NLR): events are
// copied into batches handed over through a bounded queue. The sink sees the same
// events in the same order as if it were called directly; begin() and end() run on the
// caller's thread (end() after the worker has seen the last event).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "model/trace_stream.hpp"

namespace mtf::mtfbin {

class BackgroundSink : public TraceSink {
 public:
  explicit BackgroundSink(TraceSink& sink, size_t batchEvents = 4096, size_t maxBatches = 4);
  // Stops the worker (events not yet handed on are dropped).
  ~BackgroundSink() override;
  BackgroundSink(const BackgroundSink&) = delete;
  BackgroundSink& operator=(const BackgroundSink&) = delete;

  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  // Hands on the last events, waits for the worker, then calls the sink's end(); a
  // failure of the worker is rethrown here (or by a later event()).
  void end() override;
  LossReport losses() const override { return sink_.losses(); }

 private:
  struct Batch {
    std::vector<Event> events;  // reused: copies keep their vectors' capacity
    size_t size = 0;
  };
  void run();
  void handOver();  // queues current_, takes a free batch
  void stopWorker();

  TraceSink& sink_;
  size_t batchEvents_, maxBatches_;
  std::unique_ptr<Batch> current_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::unique_ptr<Batch>> full_, free_;
  size_t batches_ = 0;  // batches made so far (at most maxBatches_)
  bool busy_ = false, stop_ = false;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace mtf::mtfbin
