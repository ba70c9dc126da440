#include "converters/mtf/binary/background_sink.hpp"

#include <algorithm>

namespace mtf::mtfbin {

BackgroundSink::BackgroundSink(TraceSink& sink, size_t batchEvents, size_t maxBatches)
    : sink_(sink),
      maxQueued_(std::max<size_t>(batchEvents, 1) * std::max<size_t>(maxBatches, 2)),
      wakeAt_(std::max<size_t>(maxQueued_ / 4, 1)),
      copies_([this](const SharedEventBatch& batch) { enqueue(batch); }, batchEvents) {}

BackgroundSink::BackgroundSink(std::unique_ptr<TraceSink> sink, size_t batchEvents,
                               size_t maxBatches)
    : BackgroundSink(*sink, batchEvents, maxBatches) {
  owned_ = std::move(sink);
}

BackgroundSink::~BackgroundSink() {
  stopWorker();
}

void BackgroundSink::stopWorker() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
  queue_.clear();  // batches go back to their readers' pools
}

void BackgroundSink::begin(const Definitions& defs) {
  sink_.begin(defs);
  worker_ = std::thread([this] { run(); });
}

void BackgroundSink::event(const Event& e) {
  copies_.add(e);
}

void BackgroundSink::events(const SharedEventBatch& batch) {
  copies_.flush();  // single events given before this batch go first
  enqueue(batch);
}

void BackgroundSink::enqueue(const SharedEventBatch& batch) {
  std::unique_lock lock(mutex_);
  // A batch larger than the whole queue still goes in once the queue is empty.
  changed_.wait(lock,
                [&] { return queued_ == 0 || queued_ + batch->size <= maxQueued_ || failure_; });
  if (failure_) std::rethrow_exception(failure_);
  queue_.push_back(batch);
  queued_ += batch->size;
  if (workerAsleep_ && queued_ >= wakeAt_) changed_.notify_all();
}

void BackgroundSink::end() {
  copies_.flush();
  {
    std::unique_lock lock(mutex_);
    ending_ = true;  // the worker takes what is left, however little
    changed_.notify_all();
    changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || failure_; });
    if (failure_) std::rethrow_exception(failure_);
  }
  stopWorker();
  sink_.end();
}

void BackgroundSink::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (!stop_ && queue_.empty()) {  // drained: sleep until enough has queued up
      workerAsleep_ = true;
      changed_.wait(lock,
                    [&] { return stop_ || (!queue_.empty() && (queued_ >= wakeAt_ || ending_)); });
      workerAsleep_ = false;
    }
    if (stop_ || failure_) return;
    SharedEventBatch batch = std::move(queue_.front());
    queue_.pop_front();
    queued_ -= batch->size;
    busy_ = true;
    lock.unlock();
    try {
      sink_.events(batch);
    } catch (...) {
      lock.lock();
      failure_ = std::current_exception();
      busy_ = false;
      changed_.notify_all();
      return;
    }
    batch.reset();  // back to its pool before the producer hears of the free place
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace mtf::mtfbin
