// Consecutive events of one location as a decoder holds them before it builds each Event:
// every event's shape and time, the whole event only when asked for. A sink that needs
// only kinds, times and references (mtf info's counting) reads the shapes and the times
// and never pays for building the events (TraceSink::eventBlock).
#pragma once

#include <cstddef>

#include "model/event.hpp"

namespace mtf {

class EventBlock {
 public:
  size_t size() const { return size_; }
  // The shape of event i: its kind, its location and its fields of type Ref (e.g. the
  // region of an Enter or a Leave) are event i's; its other fields, its time and its
  // attributes' values are not. Events of the same shape share one object.
  const Event& shape(size_t i) const { return *shapes_[i]; }
  const Event* const* shapes() const { return shapes_; }
  Tick time(size_t i) const { return times_[i]; }
  const Tick* times() const { return times_; }
  // Event i, whole: valid until the next call of event() on this block.
  virtual const Event& event(size_t i) const = 0;

 protected:
  EventBlock(const Event* const* shapes, const Tick* times, size_t size)
      : shapes_(shapes), times_(times), size_(size) {}
  ~EventBlock() = default;

 private:
  const Event* const* shapes_;
  const Tick* times_;
  size_t size_;
};

}  // namespace mtf
