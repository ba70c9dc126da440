// Removal of contiguous repeats (the paper's preprocessing and its checkTandem step),
// streaming: symbols are pushed one by one; whenever the sequence kept so far ends with
// two equal adjacent blocks of length p <= maxPeriod, the second copy is dropped and
// counted as one more repetition of the first. Nested loops collapse from the inside
// out, so ((a b)^3 c)^40 keeps "a b c" plus the two tandem repeats (a b: 120 copies,
// a b c: 40 copies). Memory is the collapsed sequence, not the input.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "model/types.hpp"
#include "patterns/symbols.hpp"

namespace mtf::patterns {

// One symbol of the collapsed sequence and the original events it stands for: its own
// event plus every event of the repeats folded into the block it ends.
struct Slot {
  uint64_t firstEvent = 0;  // index of the event in the location's event stream
  uint64_t lastEvent = 0;   // last event covered (through folded repeats)
  Tick firstTime = 0;
  Tick lastTime = 0;
  uint64_t events = 1;  // communication events covered
  // Per (direction, partner) count of the point-to-point events before this one in the
  // location: the k-th send a->b matches the k-th receive b<-a (MPI's non-overtaking
  // order). Set by the caller of push(); 0 for collectives.
  uint64_t ordinal = 0;
};

// A block repeated contiguously: symbols [start, start + period) of the collapsed
// sequence, `copies` times in all (over every run of it).
struct TandemRepeat {
  uint32_t start = 0;
  uint32_t period = 0;
  uint64_t copies = 0;
  uint64_t runs = 0;                 // contiguous runs the copies came in
  uint64_t events = 0;               // communication events of all copies
  std::vector<uint64_t> copyStarts;  // first event of each copy (the first kMaxPositions)
  std::vector<Tick> copyTimes;       // time of each copy's first event (same cap)
};

inline constexpr size_t kMaxPositions = 4096;  // positions kept per pattern

struct CollapsedSequence {
  std::vector<SymbolId> symbols;
  std::vector<Slot> slots;  // parallel to symbols
  std::vector<TandemRepeat> tandems;
  uint64_t inputSymbols = 0;
};

class TandemCollapser {
 public:
  // Blocks longer than maxPeriod are left to the maximal-repeat search.
  explicit TandemCollapser(uint32_t maxPeriod = 64) : maxPeriod_(maxPeriod) {}
  void push(SymbolId symbol, uint64_t eventIndex, Tick time, uint64_t ordinal = 0);
  CollapsedSequence finish();
  size_t size() const { return symbols_.size(); }

 private:
  bool tryCollapse();
  bool endsWithRepeat(size_t period) const;
  void dropLastCopy(size_t period);
  void mergeRepeatsOfDroppedCopy(uint32_t dropStart, size_t period);

  uint32_t maxPeriod_;
  uint64_t pushed_ = 0;
  std::vector<SymbolId> symbols_;
  std::vector<Slot> slots_;
  // (start, period) -> repeat; ordered so that the repeats of a dropped range are found.
  std::map<std::pair<uint32_t, uint32_t>, TandemRepeat> tandems_;
};

// Receives completed together (consecutive MpiIrecv events, as one MPI_Waitall writes
// them) come in the order the messages happened to arrive, not in an order the program
// chose; fed as they are, no two iterations of a halo exchange would compare equal. They
// are passed on in partner order instead (positions and times stay in event order).
class CompletionSorter {
 public:
  explicit CompletionSorter(TandemCollapser& collapser) : collapser_(collapser) {}
  // `unordered`: the event is a nonblocking receive's completion.
  void push(SymbolId symbol, int64_t partner, bool unordered, uint64_t eventIndex, Tick time,
            uint64_t ordinal);
  void flush();

 private:
  struct Pending {
    SymbolId symbol;
    int64_t partner;
    uint64_t ordinal;
    uint64_t eventIndex;
    Tick time;
  };
  TandemCollapser& collapser_;
  std::vector<Pending> pending_;
};

}  // namespace mtf::patterns
