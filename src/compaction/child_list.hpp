// The children of an open call as DagBuilder folds them, with what DagBuilder knows of
// their tail (TailRepeat), so that an append inside a repeated loop body compares one
// edge instead of searching every period again.
#pragma once

#include <cstdint>
#include <vector>

#include "compaction/compact_model.hpp"

namespace mtf::compaction {

// The list's tail as X + [S] + body[0..matched): S a Sequence edge at `seqIndex`, X the
// edges before it. `unsafe` says (from X and the body alone, see DagBuilder::watchTail)
// where DagBuilder's full search might find another fold than the one the state predicts:
// bit 0 after S has grown by one, bit j + 1 after body[j] is appended. Owned by
// DagBuilder: code that changes `edges` otherwise must call clear().
struct TailRepeat {
  static constexpr uint32_t kNone = ~uint32_t{0};
  size_t seqIndex = SIZE_MAX;  // SIZE_MAX: no Sequence edge watched
  uint32_t matched = kNone;    // kNone: the edges after S are not a prefix of its body
  uint32_t bodySize = 0;
  // S's body: a node's edges never change once it is interned, and moving the node
  // vector keeps each node's edge buffer.
  const Edge* body = nullptr;
  uint64_t unsafe = 0;
};

struct ChildList {
  std::vector<Edge> edges;
  TailRepeat repeat;
  void clear() {
    edges.clear();
    repeat = TailRepeat{};
  }
};

}  // namespace mtf::compaction
