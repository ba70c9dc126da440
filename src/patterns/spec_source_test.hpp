// Test helper: a trace built from a PatternSpec (classify_test.cpp, classify_new_test.cpp).
#pragma once

#include "model/mpi_ranks.hpp"
#include "patterns/analysis.hpp"
#include "patterns/library.hpp"

namespace mtf::patterns {

// A trace whose rank r repeats spec.perRank[r] `iterations` times, with some unrelated
// calls around, as a TraceSource (location id = 100 + rank).
class SpecSource : public TraceSource {
 public:
  // `strayEvery` > 0: rank 1 sends one extra message to a varying rank every that many
  // iterations (noise made of communication, not only of unrelated calls).
  SpecSource(PatternSpec spec, size_t iterations, size_t strayEvery = 0)
      : spec_(std::move(spec)), iterations_(iterations), strayEvery_(strayEvery) {
    DefinitionBuilder b(defs_);
    const uint64_t node = b.systemTreeNode("node", "node");
    std::vector<LocationId> ranks;
    for (size_t r = 0; r < spec_.perRank.size(); ++r) {
      const uint64_t group = b.locationGroup("rank " + std::to_string(r), node);
      b.location(100 + r, "Master thread", group);
      ranks.push_back(100 + r);
    }
    world_ = defineMpiWorld(b, ranks);
    compute_ = b.region("compute", RegionRole::Function, Paradigm::User);
  }
  const Definitions& definitions() override { return defs_; }
  void read(TraceSink& sink) override {
    sink.begin(defs_);
    for (size_t r = 0; r < spec_.perRank.size(); ++r) emitRank(sink, r);
    sink.end();
  }

 private:
  void emitRank(TraceSink& sink, size_t r) {
    Event e;
    Tick t = 1000;
    for (size_t i = 0; i < iterations_; ++i) {
      e.set(EventKind::Enter, 100 + r, t += 7, {compute_});
      sink.event(e);
      e.set(EventKind::Leave, 100 + r, t += 50 + (i * 13 + r) % 17, {compute_});
      sink.event(e);
      for (const CommSymbol& s : spec_.perRank[r]) emit(sink, e, r, s, t += 11);
      if (strayEvery_ && r == 1 && i % strayEvery_ == 3) {
        const int64_t to = int64_t((i / strayEvery_) % spec_.perRank.size());
        emit(sink, e, r, CommSymbol{SymbolKind::Send, to}, t += 3);
      }
    }
  }
  void emit(TraceSink& sink, Event& e, size_t r, const CommSymbol& s, Tick t) {
    const uint64_t partner = static_cast<uint64_t>(s.partner);
    if (s.kind == SymbolKind::Send)
      e.set(EventKind::MpiSend, 100 + r, t, {partner, world_, 5, 64});
    else if (s.kind == SymbolKind::Recv)
      e.set(EventKind::MpiRecv, 100 + r, t, {partner, world_, 5, 64});
    else
      e.set(EventKind::MpiCollectiveEnd, 100 + r, t, {s.op, world_, 0xFFFFFFFFu, 8, 8});
    sink.event(e);
  }

  PatternSpec spec_;
  size_t iterations_;
  size_t strayEvery_;
  Definitions defs_;
  Ref world_ = 0, compute_ = 0;
};

inline PatternReport analyzeSpec(const PatternSpec& spec, size_t iterations = 12,
                                 size_t strayEvery = 0) {
  SpecSource source(spec, iterations, strayEvery);
  return analyzeTrace(source);
}

}  // namespace mtf::patterns
