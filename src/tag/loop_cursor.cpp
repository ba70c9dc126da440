#include "tag/loop_cursor.hpp"

namespace mtf::tag {

LoopCursor::LoopCursor(const nlr::LoopModel& model) : model_(model) {
  stack_.push_back({&model_.top, 0, 1});
}

std::string LoopCursor::name() const {
  std::string out = "L";
  for (size_t i = 0; i + 1 < stack_.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(stack_[i].position - 1);  // the loop element just stepped over
  }
  return out;
}

bool LoopCursor::next(std::vector<LoopBoundary>& crossed) {
  const size_t before = crossed.size();
  for (;;) {
    Frame& frame = stack_.back();
    if (frame.position == frame.elements->size()) {
      if (stack_.size() == 1) break;  // the nest is over
      if (--frame.iterationsLeft > 0) {
        frame.position = 0;
        continue;
      }
      crossed.push_back({false, name()});
      stack_.pop_back();
      continue;
    }
    const nlr::ElementKey key = (*frame.elements)[frame.position++];
    if (!nlr::isLoop(key)) return true;
    const std::vector<nlr::ElementKey>& body = model_.bodies.at(nlr::bodyOf(key));
    if (body.empty() || nlr::countOf(key) == 0) continue;  // stands for no event
    stack_.push_back({&body, 0, nlr::countOf(key)});
    crossed.push_back({true, name()});
  }
  crossed.resize(before);
  return false;
}

bool LoopCursor::finish(std::vector<LoopBoundary>& crossed) {
  while (stack_.size() > 1) {
    const Frame& frame = stack_.back();
    if (frame.position != frame.elements->size() || frame.iterationsLeft != 1) return false;
    crossed.push_back({false, name()});
    stack_.pop_back();
  }
  return stack_.back().position == stack_.back().elements->size();
}

}  // namespace mtf::tag
