#include "mpi/model_reduction.hpp"

#include <gtest/gtest.h>

#include "compaction/test_support.hpp"
#include "nlr/nlr_sink.hpp"
#include "program/build_model.hpp"
#include "program/merge.hpp"
#include "program/model_annotation.hpp"
#include "program/model_blob.hpp"

namespace mtf::mpi {
namespace {

struct Leaves {
  std::vector<program::Process> processes;
  std::vector<program::System> systems;
};

// One system per location of a synthetic SPMD trace, from the program model's NLR.
Leaves leavesOf(int ranks, uint32_t seed) {
  const auto trace = compaction::testing::makeSyntheticTrace(ranks, 24, seed, false);
  nlr::NlrSink nlr(nlr::NlrOptions{}, program::modelSignatureOptions());
  compaction::testing::play(trace, nlr);
  Leaves leaves;
  for (const nlr::LocationLoops& l : nlr.results()) {
    const auto index = static_cast<uint32_t>(leaves.processes.size());
    leaves.processes.push_back({l.location, l.worldRank, l.name});
    leaves.systems.push_back(program::systemOf(l.model, index));
  }
  return leaves;
}

std::string encoded(const std::vector<program::Process>& processes, program::System system) {
  program::ProgramModel m;
  m.processes = processes;
  m.constructs = std::move(system);
  return program::encodeProgramModel(m);
}

// Leaves split into runs [bounds[i], bounds[i+1]), one partial reduction per run; the
// later runs travel to the first one as bytes.
std::string reduceInRuns(const Leaves& leaves, const std::vector<size_t>& bounds) {
  std::vector<PartialReduction> parts;
  for (size_t r = 0; r + 1 < bounds.size(); ++r) {
    parts.emplace_back(leaves.systems.size(), &leaves.processes);
    for (size_t i = bounds[r]; i < bounds[r + 1]; ++i) parts.back().addLeaf(i, leaves.systems[i]);
    parts.back().reduce();
  }
  for (size_t r = parts.size() - 1; r > 0; --r) {
    parts[0].decodeAndAbsorb(parts[r].encode());
    parts[0].reduce();
  }
  EXPECT_TRUE(parts[0].complete());
  return encoded(leaves.processes, parts[0].takeRoot());
}

TEST(PartialReduction, EqualsTheSerialReductionWhateverTheRuns) {
  for (const int ranks : {1, 5, 8, 11}) {
    const Leaves leaves = leavesOf(ranks, 3);
    program::System reduced = program::reduceSystems(leaves.systems, leaves.processes, 1);
    ASSERT_GT(program::constructCount(reduced), 0u);
    const std::string serial = encoded(leaves.processes, std::move(reduced));
    const size_t n = leaves.systems.size();
    EXPECT_EQ(reduceInRuns(leaves, {0, n}), serial) << ranks << " ranks, one run";
    EXPECT_EQ(reduceInRuns(leaves, {0, n / 3, n / 2, n}), serial) << ranks << " ranks, 3 runs";
    std::vector<size_t> single(n + 1);
    for (size_t i = 0; i <= n; ++i) single[i] = i;
    EXPECT_EQ(reduceInRuns(leaves, single), serial) << ranks << " ranks, a run per leaf";
  }
}

TEST(PartialReduction, IncompleteUntilEveryLeafIsIn) {
  const Leaves leaves = leavesOf(4, 9);
  PartialReduction r(leaves.systems.size(), &leaves.processes);
  r.addLeaf(0, leaves.systems[0]);
  r.addLeaf(1, leaves.systems[1]);
  r.reduce();
  EXPECT_FALSE(r.complete());
  EXPECT_THROW(r.takeRoot(), std::logic_error);
}

}  // namespace
}  // namespace mtf::mpi
