// TraceSink::eventBlock's default: every event of the block to event(), in order.
#include "model/event_block.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "model/trace_stream.hpp"

namespace mtf {
namespace {

// A block over whole events: each its own shape.
class VectorBlock final : public EventBlock {
 public:
  VectorBlock(const std::vector<const Event*>& shapes, const std::vector<Tick>& times)
      : EventBlock(shapes.data(), times.data(), shapes.size()) {}
  const Event& event(size_t i) const override {
    ++asked;
    return shape(i);
  }
  mutable size_t asked = 0;
};

class RecordingSink : public TraceSink {
 public:
  void begin(const Definitions&) override {}
  void event(const Event& e) override { events.push_back(e); }
  void end() override {}
  std::vector<Event> events;
};

TEST(EventBlock, DefaultHandsEveryEventToEventInOrder) {
  std::vector<Event> events(3);
  events[0].set(EventKind::Enter, 2, 10, {7});
  events[1].set(EventKind::MpiSend, 2, 11, {1, 0, 5, 64});
  events[2].set(EventKind::Leave, 2, 12, {7});
  std::vector<const Event*> shapes;
  std::vector<Tick> times;
  for (const Event& e : events) shapes.push_back(&e), times.push_back(e.time);
  const VectorBlock block(shapes, times);
  RecordingSink sink;
  EXPECT_FALSE(sink.takesEventBlocks());
  sink.eventBlock(block);
  EXPECT_EQ(sink.events, events);
  EXPECT_EQ(block.asked, 3u);
  EXPECT_EQ(block.time(1), 11u);
}

}  // namespace
}  // namespace mtf
