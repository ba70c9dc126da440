// Building the program-wide model from the per-location NLR nests: one system per
// process, the pairwise reduction (merge.hpp), then grouping (grouping.hpp).
#pragma once

#include <vector>

#include "nlr/nlr_sink.hpp"
#include "program/program_model.hpp"

namespace mtf::program {

// `threads`: merges of one reduction round run on up to that many threads. The
// per-location models are consumed (each freed once it is turned into a system).
ProgramModel buildProgramModel(std::vector<nlr::LocationLoops> locations, unsigned threads);
// The order of the processes (the reduction's leaves), stable over the locations' order:
// by world rank, the processes without one (-1) last.
bool inRankOrder(int64_t worldRankA, int64_t worldRankB);
// One process's system: the NLR nest as constructs covering only that process.
System systemOf(const nlr::LoopModel& model, uint32_t process);

}  // namespace mtf::program
