// Grouping (the last step of the merge): constructs of distinct processes that are equal
// up to their processes (partners are relative to the rank already) become one
// construct covering all of them, so that 1,024 ranks doing the same thing print once.
#pragma once

#include "program/program_model.hpp"

namespace mtf::program {

// Groups, in every body (innermost first), constructs that are ready at the same time
// (each the next construct of all its processes) and equal up to their processes and to
// a rank form of their partners (rank_form.hpp: r+k, r xor k, (r+k) mod P, a torus
// neighbour; `processes` give the ranks and the world size). Each process keeps its
// order. Among the ready groups, the one covering the most constructs goes first, so
// that processes that are a step behind (a pipeline) catch up.
void groupSystem(System& system, const std::vector<Process>& processes);
bool sameShape(const Construct& a, const Construct& b);

}  // namespace mtf::program
