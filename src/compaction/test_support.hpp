// Helpers for the compaction and MTF binary tests: synthetic traces with every event
// kind, and a sink that keeps what it receives.
#pragma once

#include <random>
#include <vector>

#include "model/mpi_ranks.hpp"
#include "model/trace_stream.hpp"

namespace mtf::compaction::testing {

class CollectingSink : public TraceSink {
 public:
  void begin(const Definitions& d) override {
    defs = d;
    begun = true;
  }
  void event(const Event& e) override { events.push_back(e); }
  void end() override { ended = true; }
  Definitions defs;
  std::vector<Event> events;
  bool begun = false, ended = false;
};

struct SyntheticTrace {
  Definitions defs;
  std::vector<Event> events;  // location after location (or interleaved, see below)
};

// An SPMD-like program: `ranks` ranks, `iterations` iterations of a loop exchanging with
// the neighbours, plus an event of every kind with random values, unbalanced
// enter/leave at the start and a call cut at the end.
SyntheticTrace makeSyntheticTrace(int ranks, int iterations, uint32_t seed, bool everyKind = true);

// Emits `trace` into `sink`, optionally interleaving the locations' events.
void play(const SyntheticTrace& trace, TraceSink& sink, bool interleave = false);

// "" if equal; otherwise the first difference, both events in text form.
std::string firstDifference(const std::vector<Event>& actual, const std::vector<Event>& expected,
                            const Definitions& defs);

}  // namespace mtf::compaction::testing
