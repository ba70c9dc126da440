// `mtf match`: the occurrences of a given communication pattern in a trace. Each rank's
// events (contiguous repeats removed, as for detection) are searched for that rank's
// part of the pattern with the n-gram filter and the edit distance (match.hpp); the
// per-rank matches are then joined into communication occurrences through their partner
// events (paper, Algorithm 4): the k-th message from a to b links the match on a that
// sends it to the match on b that receives it.
//
// An occurrence is accepted when its total edit distance is at most k times the number
// of its ranks (the paper relates the total number of differences to the size of the
// constructed pattern; this is that bound with each rank's part allowed k).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "model/trace_stream.hpp"
#include "patterns/library.hpp"
#include "patterns/match.hpp"

namespace mtf::patterns {

struct RankMatch {
  int64_t rank = -1;
  LocationId location = 0;
  size_t start = 0;  // in the rank's collapsed sequence
  size_t length = 0;
  uint32_t distance = 0;
  uint64_t repeats = 1;  // contiguous repetitions when the window is a repeated block
  uint64_t firstEvent = 0, lastEvent = 0;
  Tick firstTime = 0, lastTime = 0;
};

struct CommOccurrence {
  std::vector<size_t> matches;  // indices into MatchReport::matches
  std::vector<int64_t> ranks;
  uint32_t totalDistance = 0;
  bool complete = false;  // every rank of the pattern takes part
  Tick firstTime = 0, lastTime = 0;
};

struct MatchReport {
  PatternSpec spec;
  uint32_t maxDistance = 0;
  uint64_t resolution = 1;
  std::vector<RankMatch> matches;
  std::vector<CommOccurrence> occurrences;  // accepted ones, in time order
};

// `specFor(processes)` gives the pattern once the trace's number of processes is known.
MatchReport matchTrace(TraceSource& source,
                       const std::function<PatternSpec(size_t processes)>& specFor,
                       const MatchOptions& options, const SymbolOptions& symbols = {});

std::string matchText(const MatchReport& r);
std::string matchJson(const MatchReport& r);

}  // namespace mtf::patterns
