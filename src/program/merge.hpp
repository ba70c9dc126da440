// The merge stage (seed III-B): a reduction over the per-process systems. Merging two
// systems over disjoint processes (1) links the constructs that exchange messages (FIFO
// channels, so by the positions of their messages on each channel), (2) regularizes:
// splits loops until each link carries the whole flow of both ends, and (3) coalesces
// the loops that are each other's exclusive correspondents into one loop whose body is
// the merge of theirs. It works on the models only, never on the events.
//
// Choices where the seed is vague or silent (documented here and in the notes a loop
// carries when it stays per process):
// - Shifting (pumping part of a body out of a loop to serve a link smaller than one
//   iteration) is not done: such a loop stays as it is, with a note.
// - Iteration counts are made equal by blocking with g = gcd(counts) when g > 1; with
//   coprime counts the seed unrolls both loops completely, which can make the model as
//   long as the trace: we keep them apart instead, with a note.
// - A group whose loops share a process (a loop linked to two loops of one process) is
//   not coalesced (the seed's second pathological example), nor one that would make a
//   topological cycle (found by a topological sort, not only SCCs).
// - Collectives link constructs by the position of the calls on their communicator.
#pragma once

#include <vector>

#include "program/program_model.hpp"

namespace mtf::program {

// Merges two systems over disjoint sets of processes; both are consumed.
System mergeSystems(System a, System b, const std::vector<Process>& processes);
// The pairwise reduction of one system per process (in the given order: neighbours are
// merged first); merges of one round are independent and run on up to `threads` threads.
System reduceSystems(std::vector<System> systems, const std::vector<Process>& processes,
                     unsigned threads);

}  // namespace mtf::program
