// The program-wide loop model (seed 000, section III): one nest of constructs for the
// whole program, made by merging the per-location NLR nests. A construct is a loop, an
// event or a collective and covers a set of processes; a loop's body holds constructs
// of the processes it covers. Each process's events are the constructs covering it, in
// sequence order (a loop repeating its body): the sequence is one topological order of
// the seed's system (V, T); concurrent constructs of distinct processes may come in any
// order.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/definitions.hpp"
#include "nlr/signature.hpp"
#include "program/rank_form.hpp"

namespace mtf::program {

// Process indices (into ProgramModel::processes), sorted, without duplicates.
using ProcSet = std::vector<uint32_t>;

enum class ConstructType : uint8_t { Loop, Event, Collective };
const char* typeName(ConstructType t);  // "loop", "event", "collective"

struct Construct {
  ConstructType type = ConstructType::Event;
  ProcSet procs;
  uint64_t count = 1;           // loops: iterations
  std::vector<Construct> body;  // loops: the constructs of one iteration
  nlr::Signature signature;     // events and collectives (partner relative to the rank)
  RankForm form;                // point-to-point events: how `signature.partner` reads
  // Why the merge left this loop per process although it communicates (empty: merged,
  // or nothing to merge with).
  std::string note;

  bool isLoop() const { return type == ConstructType::Loop; }
};
using System = std::vector<Construct>;

struct Process {
  LocationId location = 0;
  int64_t worldRank = -1;  // -1: not an MPI rank
  std::string name;
};

struct ProgramModel {
  std::vector<Process> processes;
  System constructs;
  uint64_t eventsIn = 0;  // events the model stands for
};

bool isCollectiveKind(EventKind k);
// The program's processes as MPI counts them: its locations' location groups (the threads,
// GPU streams and metric locations of a rank are one process), a location that no
// definition places in a group counting alone.
size_t rankCount(const ProgramModel& model, const Definitions& defs);
// Location -> its process's location group: an accelerator group (OTF2 3: a GPU's
// streams) counts as the process group that created it.
std::unordered_map<LocationId, uint64_t> processGroups(const Definitions& defs);
// "0-15", "1-3,5": the world ranks of `procs`; processes without a rank as "L<location>".
std::string rankText(const ProgramModel& model, const ProcSet& procs);
ProcSet unite(const ProcSet& a, const ProcSet& b);
bool intersects(const ProcSet& a, const ProcSet& b);
// Constructs in the model, each counted once (a loop and everything in its body).
uint64_t constructCount(const System& system);
// Constructs (at any depth) that cover one process only: where the merge found nothing
// regular across processes (irregular master/worker, Waitany), or a rank's own events.
uint64_t singleProcessCount(const System& system);
// Saturating product (counts of nested loops).
uint64_t times(uint64_t a, uint64_t b);

}  // namespace mtf::program
