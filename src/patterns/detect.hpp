// Per-process pattern detection (paper, Algorithms 1 and 2): each location's
// communication symbols, with contiguous repeats removed (collapse.hpp), and their
// repeating sequences: tandem repeats (loops) and maximal repeats (non-contiguous
// repetitions), each with its frequency and positions, in one pass over the events.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "model/trace_stream.hpp"
#include "patterns/collapse.hpp"
#include "patterns/repeats.hpp"
#include "patterns/symbols.hpp"

namespace mtf::patterns {

// A process pattern: a symbol sequence repeated in one location.
struct ProcessPattern {
  std::vector<SymbolId> symbols;
  uint64_t frequency = 0;                    // copies, contiguous ones included
  uint64_t eventsCovered = 0;                // communication events inside all copies
  uint64_t tandemCopies = 0;                 // copies that came as contiguous repeats
  std::vector<uint64_t> positions;           // first event of each copy (first kMaxPositions)
  Tick firstTime = 0;                        // first event of the first copy
  Tick lastTime = 0;                         // last event of the last copy
  std::vector<uint32_t> collapsedPositions;  // where it starts in the collapsed sequence
};

struct LocationPatterns {
  LocationId location = 0;
  int64_t rank = -1;             // world rank, -1 if not an MPI rank
  uint64_t events = 0;           // events of the location (all kinds)
  uint64_t commEvents = 0;       // communication events (symbols)
  uint64_t collapsedLength = 0;  // symbols left after removing contiguous repeats
  Tick firstTime = 0, lastTime = 0;
  std::vector<ProcessPattern> patterns;  // most events covered first
};

struct DetectOptions {
  SymbolOptions symbols;
  uint32_t maxPeriod = 64;  // longest loop body collapsed as a contiguous repeat
  uint32_t minLength = 2;   // paper: a bi-gram at least
  size_t maxPatternsPerLocation = 2000;
};

// Patterns of one collapsed sequence (a location, or a test's string).
std::vector<ProcessPattern> findProcessPatterns(const CollapsedSequence& seq,
                                                const DetectOptions& options = {});

// Streams the events of a trace (a TraceSink) and keeps, per location, only its
// collapsed symbol sequence; `end()` finds every location's patterns.
class PatternDetector : public TraceSink {
 public:
  explicit PatternDetector(DetectOptions options = {}) : options_(options) {}
  void begin(const Definitions& defs) override;
  void event(const Event& e) override;
  void end() override;

  const SymbolTable& symbols() const { return symbols_; }
  const std::vector<LocationPatterns>& locations() const { return results_; }
  size_t worldSize() const { return worldSize_; }
  uint64_t resolution() const { return resolution_; }

 private:
  struct LocationState {
    LocationPatterns info;
    TandemCollapser collapser;
    CompletionSorter sorter{collapser};
    explicit LocationState(uint32_t maxPeriod) : collapser(maxPeriod) {}
  };
  LocationState& stateOf(LocationId id);

  DetectOptions options_;
  std::unique_ptr<SymbolExtractor> extractor_;
  SymbolTable symbols_;
  std::unordered_map<LocationId, std::unique_ptr<LocationState>> states_;
  std::vector<LocationId> order_;  // locations in order of first event
  LocationState* last_ = nullptr;
  std::vector<LocationPatterns> results_;
  size_t worldSize_ = 0;
  uint64_t resolution_ = 1;
};

}  // namespace mtf::patterns
