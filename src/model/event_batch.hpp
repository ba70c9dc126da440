// Events handed on in batches: a reader fills a batch and gives every sink the same
// immutable, shared batch. A sink that works on another thread keeps the batch instead
// of copying its events (BackgroundSink); a batch returns to its reader's pool once the
// last sink has let go of it, so reading allocates nothing per batch after start-up.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "model/event.hpp"

namespace mtf {

struct EventBatch {
  std::vector<Event> events;  // the first `size` are the batch; the rest keep their capacity
  size_t size = 0;
};
using SharedEventBatch = std::shared_ptr<const EventBatch>;

// Calls `f(event)` for every event of `batch`, in order. A batch was written on another
// core: its events (fields inline) are asked for a few events ahead, every cache line.
template <typename F>
inline void forEachEvent(const EventBatch& batch, F&& f) {
  constexpr size_t kAhead = 8;
  const Event* events = batch.events.data();
  // In a local: `f` writes memory that the compiler cannot tell apart from the batch's.
  const size_t size = batch.size;
  for (size_t i = 0; i < size; ++i) {
    if (i + kAhead < size) {
      const char* ahead = reinterpret_cast<const char*>(&events[i + kAhead]);
      __builtin_prefetch(ahead);
      __builtin_prefetch(ahead + sizeof(Event) - 1);
    }
    f(events[i]);
  }
}

// Fills batches of `batchEvents` events and hands each full one to `deliver`. The default
// is small: a sink that works inline (mtf info, the writers) reads a batch right after it
// was filled, while it is still in the processor's cache.
class EventBatcher {
 public:
  using Deliver = std::function<void(const SharedEventBatch&)>;
  static constexpr size_t kDefaultBatchEvents = 256;
  explicit EventBatcher(Deliver deliver, size_t batchEvents = kDefaultBatchEvents);
  EventBatcher(const EventBatcher&) = delete;
  EventBatcher& operator=(const EventBatcher&) = delete;

  // The slot of the next event; it holds an old event (with its vectors' capacity):
  // the caller sets every member, then calls commit().
  Event& next() {
    if (!current_) take();
    return current_->events[current_->size];
  }
  // The slot given by next() is a complete event: hands the batch on when it is full.
  void commit() {
    if (++current_->size == batchEvents_) flush();
  }
  // commit() when the event does not fill the batch; false (nothing done) when it would:
  // then commit() hands the batch on. Lets a reader keep the hand-over out of its hot path.
  bool commitIfRoom() {
    if (current_->size + 1 == batchEvents_) return false;
    ++current_->size;
    return true;
  }
  // A copy of `e` as the next event.
  void add(const Event& e) {
    next() = e;
    commit();
  }
  // Hands on the events committed so far (nothing if there are none).
  void flush();

 private:
  class Pool;
  void take();

  Deliver deliver_;
  size_t batchEvents_;
  std::shared_ptr<Pool> pool_;
  std::shared_ptr<EventBatch> current_;
};

}  // namespace mtf
