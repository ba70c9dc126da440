#include "converters/mtf/binary/background_sink.hpp"

namespace mtf::mtfbin {

BackgroundSink::BackgroundSink(TraceSink& sink, size_t batchEvents, size_t maxBatches)
    : sink_(sink),
      batchEvents_(batchEvents ? batchEvents : 1),
      maxBatches_(maxBatches > 1 ? maxBatches : 2) {}

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
}

void BackgroundSink::begin(const Definitions& defs) {
  sink_.begin(defs);
  current_ = std::make_unique<Batch>();
  current_->events.resize(batchEvents_);
  batches_ = 1;
  worker_ = std::thread([this] { run(); });
}

void BackgroundSink::event(const Event& e) {
  Batch& b = *current_;
  b.events[b.size++] = e;
  if (b.size == batchEvents_) handOver();
}

void BackgroundSink::handOver() {
  std::unique_lock lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  full_.push_back(std::move(current_));
  changed_.notify_all();
  if (free_.empty() && batches_ < maxBatches_) {
    ++batches_;
    lock.unlock();
    current_ = std::make_unique<Batch>();
    current_->events.resize(batchEvents_);
    return;
  }
  changed_.wait(lock, [&] { return !free_.empty() || failure_; });
  if (failure_) std::rethrow_exception(failure_);
  current_ = std::move(free_.front());
  free_.pop_front();
  current_->size = 0;
}

void BackgroundSink::end() {
  if (current_ && current_->size > 0) handOver();
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return (full_.empty() && !busy_) || failure_; });
    if (failure_) std::rethrow_exception(failure_);
  }
  stopWorker();
  sink_.end();
}

void BackgroundSink::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !full_.empty(); });
    if (stop_ || failure_) return;
    std::unique_ptr<Batch> batch = std::move(full_.front());
    full_.pop_front();
    busy_ = true;
    lock.unlock();
    try {
      for (size_t i = 0; i < batch->size; ++i) sink_.event(batch->events[i]);
    } catch (...) {
      lock.lock();
      failure_ = std::current_exception();
      busy_ = false;
      changed_.notify_all();
      return;
    }
    lock.lock();
    free_.push_back(std::move(batch));
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace mtf::mtfbin
