// The program-wide model's reduction (program/merge.hpp, reduceSystems) spread over
// mtf-mpi's processes. reduceSystems merges the per-process systems pairwise, round after
// round: node (level l, index k) of its tree stands for the leaves [k 2^l, (k+1) 2^l), a
// node without a right sibling going up alone. Each MPI process computes the nodes whose
// leaves it holds; partial reductions then travel up a binomial tree of MPI processes,
// each completing the nodes it now can. Every node is merged from the same two children
// as in the serial reduction, so the model is the one `mtf model` builds, whatever the
// number of processes and whichever process merges it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "program/program_model.hpp"

namespace mtf::mpi {

class PartialReduction {
 public:
  // A reduction over `leaves` systems; `processes` (one per leaf, in leaf order) is what
  // mergeSystems needs of them.
  PartialReduction(uint64_t leaves, const std::vector<program::Process>* processes);

  void addLeaf(uint64_t index, program::System system);
  // Takes the nodes of `other` (a reduction over the same leaves).
  void absorb(PartialReduction&& other);
  // Merges every node whose children are present, level after level.
  void reduce();
  bool complete() const;
  // The root's system (the reduction must be complete).
  program::System takeRoot();

  // Byte form for sending between processes, and back.
  std::string encode() const;
  void decodeAndAbsorb(const std::string& bytes);

 private:
  using Key = std::pair<uint32_t, uint64_t>;  // (level, index)
  uint32_t rootLevel() const;
  bool exists(Key node) const { return (node.second << node.first) < leaves_; }

  uint64_t leaves_;
  const std::vector<program::Process>* processes_;
  std::map<Key, program::System> nodes_;
};

}  // namespace mtf::mpi
