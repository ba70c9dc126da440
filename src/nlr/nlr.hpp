// Nested Loop Recognition (Ketterlin & Clauss; section II-C of the loop-nest paper),
// incremental over one stream of integer symbols.
//
// NLR keeps a window of elements (events and loops). After each new symbol it reduces
// the end of the window, repeatedly, until nothing applies:
//  - extension: a loop followed by one more copy of its body absorbs the copy (count+1);
//  - folding: K consecutive copies (K = minReps, 3 by default) of any sequence at the end
//    of the window become one loop of K iterations.
// Among the reductions possible, the one with the shortest body wins (extension before
// folding on a tie) — the paper leaves the order open; shortest first gives the
// innermost loops first, which then make the outer bodies equal. When the window holds
// more than `window` elements, the oldest goes out to the model for good, so memory is
// the window plus the model (the hash-consed bodies and the elements that left the
// window), never the trace length.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "nlr/loop_model.hpp"
#include "nlr/period_runs.hpp"

namespace mtf::nlr {

struct NlrOptions {
  size_t window = 512;   // elements kept for recognition; bodies up to window/minReps
  unsigned minReps = 3;  // copies needed to create a loop (at least 2)
  // Candidate periods from the run table (PeriodRuns) when window / minReps allows it;
  // false: only the previous-occurrence chain (the same result; tests compare both).
  bool periodRuns = true;
  // While the stream repeats the body of the loop on top of the window, its events are
  // only compared, not pushed (Nlr::pushSymbol; the same result, tests compare both).
  bool deferCopies = true;
};

// Loop bodies, hash-consed: equal bodies get the same id; a body only refers to bodies
// created before it.
class BodyTable {
 public:
  uint32_t intern(const ElementKey* elements, size_t length);
  const std::vector<ElementKey>& body(uint32_t id) const { return bodies_[id]; }
  size_t size() const { return bodies_.size(); }
  const std::vector<std::vector<ElementKey>>& all() const { return bodies_; }

 private:
  std::vector<std::vector<ElementKey>> bodies_;
  std::unordered_multimap<uint64_t, uint32_t> byHash_;
};

// Loop key -> last position in the window (NLR files loops by body: the key with count 0).
// Open addressing (linear probing, deletion by backward shift, no tombstones), at most
// half full; no allocation per insertion. Sized by the loops in the window, never by the
// stream.
class LoopPositions {
 public:
  // The position stored for `key`, inserted as -1 if absent. Valid until the next call.
  int64_t& operator[](ElementKey key);
  void erase(ElementKey key);
  size_t bytes() const { return entries_.capacity() * sizeof(Entry); }

 private:
  struct Entry {
    ElementKey key = 0;  // 0 = empty (a loop key is never 0)
    int64_t position = -1;
  };
  size_t home(ElementKey key) const { return (key * 0x9E3779B97F4A7C15ull) >> shift_; }
  size_t indexOf(ElementKey key) const;  // the key's slot or the empty slot where it would go
  void grow();

  std::vector<Entry> entries_ = std::vector<Entry>(16);
  unsigned shift_ = 60;  // 64 - log2(entries_.size())
  size_t used_ = 0;
};

class Nlr {
 public:
  explicit Nlr(const NlrOptions& options = {});
  void push(uint32_t symbol);
  // One after the other, in one loop; every symbol is below `symbolCount`.
  void push(std::span<const uint32_t> symbols, size_t symbolCount);

  uint64_t pushed() const { return pushed_; }
  size_t windowSize() const { return end_ - head_ + pending_.matched; }
  // Events of the window taken in as part of a copy of the top loop's body, not pushed.
  size_t deferredEvents() const { return pending_.matched; }
  size_t emittedSize() const { return emitted_.size(); }
  const BodyTable& bodies() const { return bodies_; }
  // The model so far: elements that left the window, then the window (no side effects).
  LoopModel model(std::vector<Signature> signatures) const;
  // Bytes held by the recognizer's working state (window, indexes), not the model.
  size_t workingBytes() const;

 private:
  using Pos = int64_t;  // absolute position of an element in the stream of elements

  Pos firstPos() const { return offset_ + static_cast<Pos>(head_); }
  Pos topPos() const { return offset_ + static_cast<Pos>(end_) - 1; }
  ElementKey at(Pos p) const { return buf_[static_cast<size_t>(p - offset_)]; }
  Pos previousSame(Pos p) const { return prev_[static_cast<size_t>(p - offset_)]; }
  size_t extensionSlot(Pos loop, ElementKey key) const {
    const auto length = static_cast<Pos>(bodies_.body(bodyOf(key)).size());
    return static_cast<size_t>(loop + length) & extensionMask_;
  }
  Pos& lastPositionOf(ElementKey key);
  void forgetLastPosition(ElementKey key, Pos restored);

  void pushSymbol(uint32_t symbol);
  void pushNow(uint32_t symbol);
  void completePending();
  bool pendingExtends(Pos top, size_t index);
  void replayPending();
  void startPending();
  bool deferrable(uint32_t body);
  struct Pushed {
    Pos position;  // of the element pushed
    Pos previous;  // its previous occurrence in the window, or -1
    Pos first;     // the window's first position
  };
  Pushed pushElement(ElementKey key, Pos& last);
  bool mayReduceAfter(const Pushed& pushed, size_t size) const;
  void popElements(size_t count);
  void popLoop(size_t top);
  void evictOldest();
  bool reduceOnce();
  Pos findExtension(size_t& bodyLength) const;
  bool isRepetition(size_t k) const;
  size_t findFold(size_t limit) const;
  size_t findFoldInTable(size_t limit) const;
  void extend(Pos loop, size_t k);
  void fold(size_t k);

  NlrOptions options_;
  size_t maxBody_;
  uint64_t pushed_ = 0;
  BodyTable bodies_;
  std::vector<ElementKey> emitted_;
  // The window: buf_[head_..end_) are live; buf_[i] has absolute position offset_ + i.
  // buf_, prev_ and extNext_ have a fixed size, 2 * window + 2: a push finds at most
  // window live elements and head_ < window, and every reduction shrinks the window, so
  // end_ never passes 2 * window (pushes and pops are then stores, no capacity checks).
  // They are left uninitialised: memory is touched as the window first fills, as before.
  size_t capacity_ = 0;
  std::unique_ptr<ElementKey[]> buf_;
  std::unique_ptr<Pos[]> prev_;  // previous position of the same key (loops: body), or -1
  size_t head_ = 0;
  size_t end_ = 0;
  Pos offset_ = 0;
  // Extension candidates: a loop at position p whose body has L elements can only
  // absorb a copy when the top reaches p + L, so loops are filed under that position
  // (modulo the table size; entries are checked when used, stale ones fail the check).
  // Loops filed under the same position are chained through extNext_ (parallel to
  // buf_), newest first; pops restore the chain exactly, like prev_.
  std::vector<Pos> extensionAt_;
  std::unique_ptr<Pos[]> extNext_;
  size_t extensionMask_ = 0;
  std::vector<Pos> lastEvent_;  // symbol -> last position, or -1
  // Loops are filed by body, whatever their count: an extension changes the count in place.
  static ElementKey bodyKeyOf(ElementKey loop) { return loop & ~kMaxIterations; }
  LoopPositions lastLoop_;  // bodyKeyOf(loop key) -> last position
  void startRunTable() const;
  bool runsEnabled_ = false;                // the run table may be used (options, sizes)
  mutable std::optional<PeriodRuns> runs_;  // candidate periods of the top, once needed
  // Windows up to this size take fold candidates from the chain, larger ones from runs_.
  static constexpr size_t kChainWindow = 128;
  // A copy of the body of the loop on top of the window, under way (Nlr::pushSymbol): its
  // first `matched` events have come and are not pushed. `body` is null when none is.
  struct PendingCopy {
    const ElementKey* body = nullptr;
    size_t length = 0;
    size_t matched = 0;
    // Bit i: pendingExtends found that no loop extends once the copy's event i has come, in
    // a way that holds for every count of the loop on top (Nlr::pendingExtends). Kept while
    // copies of the same body follow one another on the same window (completePending).
    uint64_t noExtension = 0;
  };
  PendingCopy pending_;
  // Per body id: 0 not known yet, 1 its copies may be deferred, 2 not (deferrable()).
  std::vector<uint8_t> deferrableBody_;
};

}  // namespace mtf::nlr
