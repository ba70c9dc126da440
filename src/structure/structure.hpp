// The hierarchical structure of a trace (the structure paper's Table 5): perturbed regions
// (a closing of the perturbation signal, e.g. flushing), then, in each unperturbed segment,
// periodic zones and the non-periodic phases between them; inside one iteration of each
// periodic zone the same search gives the next level.
//
// Where the paper is vague, mtf chooses (each explained where it is coded):
// - signals are means per bin of whole ticks; each level is searched at most at
//   StructureOptions::searchSamples samples (bins averaged), so its FFTs stay small;
// - equation 3 ignores relative maxima near multiples of T (harmonics; read literally the
//   rule rejects any signal of more than ~10 periods) and peaks below 20% of A(0);
// - closings of widths 3, 5, 9, ... are all tried, and the clear period whose zone covers
//   most of the segment wins (the raw signal's clear period may be a fine oscillation
//   inside one phase, such as a wavefront's pipeline steps);
// - a zone is the longest run of iteration windows, each tracked from the previous one
//   (up to a quarter period off), with a correlation of at least 0.5 to a neighbour;
//   iterations are cut at the start of the quietest stretch of the folded signal, and the
//   period reported is the tracked windows' median length;
// - perturbed regions: the closing (1% of the span wide) of the perturbation signal > 0;
// - the next level is searched in the zone's middle iteration.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "structure/periods.hpp"
#include "structure/signal.hpp"

namespace mtf::structure {

enum class RegionKind : uint8_t { NonPeriodic, Periodic, Perturbed };
std::string_view regionKindName(RegionKind kind);  // "non-periodic", "periodic", "perturbed"

// What found a periodic zone: the autocorrelation (the paper's method) or a burst train
// (iterations of varying length alike in events, burst_train.hpp).
enum class FoundBy : uint8_t { None, Autocorrelation, BurstTrain };
std::string_view foundByName(FoundBy by);  // "", "autocorrelation", "burst-train"

struct StructureRegion {
  RegionKind kind = RegionKind::NonPeriodic;
  Tick start = 0, end = 0;  // [start, end) in ticks
  Tick period = 0;          // periodic zones: the period in ticks (0 otherwise)
  uint64_t iterations = 1;  // periodic zones: whole periods in the zone
  FoundBy foundBy = FoundBy::None;
  double mpiFraction = 0;  // mean share of the processes' time spent in MPI calls
  uint64_t events = 0;
  // Periodic zones: the iteration the next level was searched in, [start, end).
  Tick sampleStart = 0, sampleEnd = 0;
  std::vector<StructureRegion> children;  // the structure inside one iteration
};

// Signals the search needs, all on one grid.
struct StructureInput {
  TimeGrid grid;
  std::vector<double> signal;        // where periods are searched (e.g. p2p)
  std::vector<double> perturbation;  // perturbed where its closing is > 0 (e.g. flush)
  std::vector<double> mpi;           // processes in MPI calls
  std::vector<double> events;        // events per bin
  size_t processes = 1;
};

struct StructureOptions {
  unsigned levels = 3;             // levels below the whole trace
  double perturbedClosing = 0.01;  // closing width of the perturbation, share of the span
  double similarity = 0.5;         // correlation that makes two neighbouring periods alike
  size_t minBinsPerPeriod = 8;     // coarser periods are not searched for inner levels
  size_t searchSamples = 16384;    // each segment is searched at most at this resolution
  PeriodOptions period;
};

// The level-1 regions in time order, each with its inner levels.
std::vector<StructureRegion> findStructure(const StructureInput& in, const StructureOptions& o);

// findStructure on in.signal; when it finds no periodic zone, on in.mpi (processes in any MPI
// call), kept if that finds one of 4 iterations or more (usedMpi is then set). The seed's
// point-to-point signal is empty or too sparse in programs whose loop communicates by collectives
// only.
std::vector<StructureRegion> findStructureOrMpi(const StructureInput& in, const StructureOptions& o,
                                                bool& usedMpi);

}  // namespace mtf::structure
