#include "model/event_batch.hpp"

namespace mtf {

// Batches nobody holds any more. Shared with the batches' deleters, so that a sink on
// another thread may let go of a batch after the batcher is gone.
class EventBatcher::Pool {
 public:
  explicit Pool(size_t batchEvents) : batchEvents_(batchEvents) {}
  std::unique_ptr<EventBatch> acquire() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        std::unique_ptr<EventBatch> batch = std::move(free_.back());
        free_.pop_back();
        return batch;
      }
    }
    auto batch = std::make_unique<EventBatch>();
    batch->events.resize(batchEvents_);
    return batch;
  }
  void release(EventBatch* batch) {
    batch->size = 0;
    std::lock_guard lock(mutex_);
    free_.emplace_back(batch);
  }

 private:
  size_t batchEvents_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<EventBatch>> free_;
};

EventBatcher::EventBatcher(Deliver deliver, size_t batchEvents)
    : deliver_(std::move(deliver)),
      batchEvents_(batchEvents ? batchEvents : 1),
      pool_(std::make_shared<Pool>(batchEvents_)) {}

void EventBatcher::take() {
  // The mutex of the pool orders a sink's last reads of a batch before its reuse here.
  std::shared_ptr<Pool> pool = pool_;
  current_ = std::shared_ptr<EventBatch>(pool->acquire().release(),
                                         [pool](EventBatch* b) { pool->release(b); });
}

void EventBatcher::flush() {
  if (!current_ || current_->size == 0) return;
  const SharedEventBatch batch = std::move(current_);  // the next event takes a new batch
  deliver_(batch);
}

}  // namespace mtf
