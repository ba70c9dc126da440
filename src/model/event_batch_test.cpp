// EventBatcher: full batches are handed on in order, a held batch is never written
// again, and batches nobody holds are reused.
#include "model/event_batch.hpp"

#include <gtest/gtest.h>

namespace mtf {
namespace {

void put(EventBatcher& batcher, uint64_t n) {
  Event& e = batcher.next();
  e.kind = EventKind::Enter;
  e.location = n % 3;
  e.time = n;
  e.fields.assign({n * 10});
  e.attributes.clear();
  batcher.commit();
}

TEST(EventBatcher, HandsOnFullBatchesThenTheRestInOrder) {
  std::vector<SharedEventBatch> seen;
  EventBatcher batcher([&](const SharedEventBatch& b) { seen.push_back(b); }, 4);
  for (uint64_t n = 0; n < 10; ++n) put(batcher, n);
  EXPECT_EQ(seen.size(), 2u);
  batcher.flush();
  batcher.flush();  // nothing new: no empty batch
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[2]->size, 2u);
  uint64_t n = 0;
  for (const SharedEventBatch& b : seen)
    for (size_t i = 0; i < b->size; ++i, ++n) {
      EXPECT_EQ(b->events[i].time, n);
      EXPECT_EQ(b->events[i].fields, std::vector<uint64_t>{n * 10});
    }
  EXPECT_EQ(n, 10u);  // held batches kept their events while later ones were filled
}

TEST(EventBatcher, ReusesBatchesNobodyHolds) {
  const EventBatch* last = nullptr;
  int reused = 0;
  EventBatcher batcher(
      [&](const SharedEventBatch& b) {
        if (b.get() == last) ++reused;
        last = b.get();  // not kept: the batch goes back to the pool
      },
      2);
  for (uint64_t n = 0; n < 20; ++n) put(batcher, n);
  EXPECT_EQ(reused, 9);
}

TEST(EventBatcher, BatchOutlivesTheBatcher) {
  SharedEventBatch kept;
  {
    EventBatcher batcher([&](const SharedEventBatch& b) { kept = b; }, 3);
    for (uint64_t n = 0; n < 3; ++n) put(batcher, n);
  }
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->events[2].time, 2u);
  kept.reset();  // returns it to a pool that only the batch still holds
}

}  // namespace
}  // namespace mtf
