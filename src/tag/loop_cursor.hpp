// Loop entry/exit markers from NLR (seed 004 section 2.1, "explicit loop modeling"): walks
// a location's loop nest, as an MTF file stores it (one symbol per event, every event, in
// trace order), in step with that location's events, and tells which loops each event
// enters or leaves. Memory is the nesting depth.
// A loop is named by its place in the nest: "L3" is the top-level element 3 (from 0), "L3.1"
// element 1 of its body; the same loop keeps its name in every iteration of the loops
// around it.
#pragma once

#include <string>
#include <vector>

#include "nlr/loop_model.hpp"

namespace mtf::tag {

struct LoopBoundary {
  bool entry = true;  // false: exit
  std::string loop;   // "L3.1"
};

class LoopCursor {
 public:
  explicit LoopCursor(const nlr::LoopModel& model);
  // Steps over one event: appends the loops left, then entered, before it. False when the
  // nest has no event left (it does not describe this stream); `crossed` is then unchanged.
  bool next(std::vector<LoopBoundary>& crossed);
  // After the last event: appends the exits of the loops that end with it. False if the
  // nest holds more events than the stream had.
  bool finish(std::vector<LoopBoundary>& crossed);

 private:
  struct Frame {
    const std::vector<nlr::ElementKey>* elements;
    size_t position;  // next element
    uint64_t iterationsLeft;
  };
  std::string name() const;

  const nlr::LoopModel& model_;
  std::vector<Frame> stack_;
};

}  // namespace mtf::tag
