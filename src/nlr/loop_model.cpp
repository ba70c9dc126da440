#include "nlr/loop_model.hpp"

#include <limits>

namespace mtf::nlr {

namespace {

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

uint64_t saturatingMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::numeric_limits<uint64_t>::max();
  return a * b;
}

// Per-body totals, computed in id order (a body only refers to smaller ids).
template <typename ElementCost>
std::vector<uint64_t> perBody(const LoopModel& model, ElementCost cost) {
  std::vector<uint64_t> total(model.bodies.size(), 0);
  for (size_t id = 0; id < model.bodies.size(); ++id)
    for (ElementKey k : model.bodies[id]) total[id] = saturatingAdd(total[id], cost(k, total));
  return total;
}

void expandSequence(const LoopModel& model, const std::vector<ElementKey>& sequence,
                    const std::function<void(uint32_t)>& visit) {
  for (ElementKey k : sequence) {
    if (!isLoop(k)) {
      visit(symbolOf(k));
      continue;
    }
    const std::vector<ElementKey>& body = model.bodies[bodyOf(k)];
    for (uint64_t i = 0; i < countOf(k); ++i) expandSequence(model, body, visit);
  }
}

void writeSequence(const LoopModel& model, const std::vector<ElementKey>& sequence,
                   LoopTreeWriter& writer, unsigned depth) {
  for (ElementKey k : sequence) {
    if (isLoop(k)) {
      writer.beginLoop(countOf(k), depth);
      writeSequence(model, model.bodies[bodyOf(k)], writer, depth + 1);
      writer.endLoop(depth);
    } else {
      writer.event(symbolOf(k), model.signatures[symbolOf(k)], depth);
    }
  }
}

}  // namespace

uint64_t printedElements(const LoopModel& model) {
  const auto cost = [](ElementKey k, const std::vector<uint64_t>& sizes) -> uint64_t {
    return isLoop(k) ? saturatingAdd(1, sizes[bodyOf(k)]) : 1;
  };
  const std::vector<uint64_t> sizes = perBody(model, cost);
  uint64_t total = 0;
  for (ElementKey k : model.top) total = saturatingAdd(total, cost(k, sizes));
  return total;
}

uint64_t expandedLength(const LoopModel& model) {
  const auto cost = [](ElementKey k, const std::vector<uint64_t>& lengths) -> uint64_t {
    return isLoop(k) ? saturatingMul(countOf(k), lengths[bodyOf(k)]) : 1;
  };
  const std::vector<uint64_t> lengths = perBody(model, cost);
  uint64_t total = 0;
  for (ElementKey k : model.top) total = saturatingAdd(total, cost(k, lengths));
  return total;
}

void expand(const LoopModel& model, const std::function<void(uint32_t)>& visit) {
  expandSequence(model, model.top, visit);
}

void writeLoopTree(const LoopModel& model, LoopTreeWriter& writer) {
  writeSequence(model, model.top, writer, 0);
}

}  // namespace mtf::nlr
