// The seed's Figure 5 drawing of the program model: a line per process (or, beyond 32
// processes, per group of processes doing the same constructs, labelled with its rank
// range), loops as gray boxes (darker when deeper) with their iteration count and rank
// coverage in the upper left corner, point-to-point messages as arrows coloured by tag,
// collectives as dashed vertical bars. Horizontal positions are a Lamport clock relative
// to the start of each system (a loop body starts at its box): a construct comes after
// the previous constructs of its processes and after the sends it receives from.
#pragma once

#include <ostream>

#include "nlr/loop_print.hpp"
#include "program/program_model.hpp"

namespace mtf::program {

void writeModelSvg(std::ostream& out, const ProgramModel& model, const nlr::EventNamer& namer);

}  // namespace mtf::program
