// The result of Nested Loop Recognition for one location: a sequence of elements, each
// either an event (a symbol standing for an event signature) or a loop (a body and an
// iteration count). Bodies are hash-consed: two loops with equal bodies share one body
// id, so comparing two elements is comparing two integers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "nlr/signature.hpp"

namespace mtf::nlr {

// Element keys (uint64): bit 63 clear = an event, the low 32 bits are its symbol;
// bit 63 set = a loop, bits 32..62 are the body id and bits 0..31 the iteration count.
using ElementKey = uint64_t;
inline constexpr uint64_t kLoopBit = uint64_t{1} << 63;
inline constexpr uint64_t kMaxIterations = 0xFFFFFFFFu;
inline constexpr uint64_t kMaxBodyId = 0x7FFFFFFFu;

inline constexpr ElementKey eventKey(uint32_t symbol) {
  return symbol;
}
inline constexpr ElementKey loopKey(uint32_t body, uint64_t count) {
  return kLoopBit | (uint64_t{body} << 32) | count;
}
inline constexpr bool isLoop(ElementKey k) {
  return (k & kLoopBit) != 0;
}
inline constexpr uint32_t symbolOf(ElementKey k) {
  return static_cast<uint32_t>(k);
}
inline constexpr uint32_t bodyOf(ElementKey k) {
  return static_cast<uint32_t>((k & ~kLoopBit) >> 32);
}
inline constexpr uint64_t countOf(ElementKey k) {
  return k & kMaxIterations;
}

// One location's loop nest. Invariant (checked by the blob reader): a body only refers to
// bodies with smaller ids, so the nest is a DAG without cycles.
struct LoopModel {
  std::vector<Signature> signatures;            // symbol -> signature
  std::vector<std::vector<ElementKey>> bodies;  // body id -> its elements
  std::vector<ElementKey> top;                  // the location's sequence
  uint64_t eventsIn = 0;                        // signatures the model stands for

  bool operator==(const LoopModel&) const = default;
};

// Number of elements of the model as printed (each loop counts once per place it is
// printed, plus its body): the "size of the loop program".
uint64_t printedElements(const LoopModel& model);
// Number of events the model expands to (sum of counts); saturates at UINT64_MAX.
uint64_t expandedLength(const LoopModel& model);
// Calls `visit(symbol)` for every event of the expansion, in order (streaming: memory is
// the nesting depth, not the expanded length).
void expand(const LoopModel& model, const std::function<void(uint32_t)>& visit);

// A tiny element-writer interface: the model as nested elements (MTF XML Loop elements,
// JSON, the Figure 3 text).
class LoopTreeWriter {
 public:
  virtual ~LoopTreeWriter() = default;
  virtual void beginLoop(uint64_t iterations, unsigned depth) = 0;
  virtual void endLoop(unsigned depth) = 0;
  virtual void event(uint32_t symbol, const Signature& signature, unsigned depth) = 0;
};
void writeLoopTree(const LoopModel& model, LoopTreeWriter& writer);

}  // namespace mtf::nlr
