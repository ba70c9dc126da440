// Known patterns on real traces (issue 29). What each trace must show is written from the
// program that made it (its source where public, its communication matrix, `mtf loops`),
// not from mtf's output:
//  - pipit ping-pong: 2 ranks bounce a message back and forth -> pairwise (r xor 1).
//  - sst-macro's MPI coverage test: in test_pt2pt every rank posts Isend to r+disp and
//    Irecv from r-disp, disp doubling modulo 10 across the message sizes (1, 2, 4, 8, 6, 2,
//    ...): after the first round only even displacements, so the even ranks and the odd
//    ranks each exchange with every other rank of their parity -> all-to-all on
//    0,2,4,6,8 and on 1,3,5,7,9.
//  - paraver-kernel qsort (4 tasks): its matrix and loops show rank 0 receiving from 1 and
//    2, then sending to 2 and 1, rank 2 relaying for 3 (Reduce/Bcast beside) -> a
//    binomial tree up then down: tree-allreduce rooted at 0.
//  - PROFET's LULESH: 8 ranks on a 2x2x2 domain decomposition (plus 12 uncore-counter
//    tasks that exchange nothing); CommSBN / CommSyncPosVel exchange with the 26
//    neighbours (all 7 other ranks on 2x2x2), CommMonoQ with the 6 faces (3 ranks)
//    -> mesh3d 2x2x2 with 26 neighbours on ranks 0-7.
//  - PyCOMPSs' cholesky (its runtime's master, task 1, and one worker, task 2): the worker's
//    10 messages reach the master, then the master's 10 go to the worker, one way at a time
//    -> no known pattern, but close to a pairwise exchange (said as a near miss).
//  - PyPOP's EPOCH example on 2 ranks: the particle-in-cell domain split in two, each step's
//    halo exchanges (MPI_Sendrecv, MPI_Send/MPI_Recv) go to the one other rank, 578
//    messages each way in its matrix -> pairwise (r xor 1).
//  - fastotf2 (HIP, no MPI) and the TAU OpenCL traces: one process -> nothing, and no
//    near miss.
#include "data/real_traces.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "patterns/analysis.hpp"
#include "registry/registry.hpp"

namespace mtf::patterns {
namespace {

namespace fs = std::filesystem;

struct Expected {
  std::string trace;  // relative to tests/data
  std::set<std::string> patterns;
  // Parameters every use of the pattern must have (pattern -> key -> value).
  std::map<std::string, std::map<std::string, std::string>> parameters;
  bool nearMiss = false;  // a near miss must be said (only where nothing is named)
};

const std::vector<Expected>& table() {
  static const std::vector<Expected> rows = {
      {"otf2/pipit-ping-pong/traces.otf2",
       {"pairwise"},
       {{"pairwise", {{"pairing", "r xor 1"}, {"pairs", "1"}}}}},
      {"otf2/pipit-ping-pong-papi/traces.otf2",
       {"pairwise"},
       {{"pairwise", {{"pairing", "r xor 1"}, {"pairs", "1"}}}}},
      {"otf2/sst-macro-mpi/traces.otf2", {"all-to-all"}, {{"all-to-all", {{"processes", "5"}}}}},
      {"otf2/fastotf2-mi300/traces.otf2", {}, {}},
      {"paraver/paraver-kernel-qsort/qsort_beo3.prv",
       {"tree-allreduce"},
       {{"tree-allreduce", {{"root", "0"}, {"shape", "binomial"}}}}},
      {"paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv",
       {"mesh3d"},
       {{"mesh3d", {{"grid", "2x2x2"}, {"neighbours", "26"}, {"group", "0-7"}}}}},
      {"paraver/compss-cholesky/cholesky_autoparallel.prv", {}, {}, true},
      // EPOCH's halo exchange on 2 ranks: each step's sends to the other rank.
      {"paraver/pypop-epoch-2proc/epoch_2proc.prv.gz",
       {"pairwise"},
       {{"pairwise", {{"pairing", "r xor 1"}, {"pairs", "1"}}}}},
      {"tau/opencl-l5", {}, {}},
      {"tau/opencl-l9", {}, {}},
  };
  return rows;
}

PatternReport analyzeFile(const fs::path& path) {
  auto source = openTrace(path, {});
  return analyzeTrace(*source);
}

void expectFound(const PatternReport& r, const Expected& e) {
  std::set<std::string> found;
  for (const auto& u : r.known) found.insert(u.pattern);
  EXPECT_EQ(found, e.patterns) << reportText(r, 3);
  for (const auto& u : r.known)
    for (const auto& [key, value] : e.parameters.count(u.pattern)
                                        ? e.parameters.at(u.pattern)
                                        : std::map<std::string, std::string>{}) {
      const auto it = u.parameters.find(key);
      EXPECT_TRUE(it != u.parameters.end() && it->second == value)
          << u.pattern << " " << key << " should be " << value << "\n"
          << reportText(r, 0);
    }
  if (e.patterns.empty()) {
    EXPECT_EQ(!r.nearMisses.empty(), e.nearMiss) << reportText(r, 3);
  }
}

TEST(PatternsRealTraces, TableCoversEveryRealTrace) {
  std::set<std::string> inTable;
  for (const auto& e : table()) inTable.insert(e.trace);
  for (const auto& t : test::realTraces()) EXPECT_TRUE(inTable.count(t)) << t << " has no row";
}

class PatternsOnRealTrace : public ::testing::TestWithParam<size_t> {};

TEST_P(PatternsOnRealTrace, FindsWhatTheProgramDoes) {
  const Expected& e = table()[GetParam()];
  expectFound(analyzeFile(fs::path(MTF_DATA_DIR) / e.trace), e);
}

INSTANTIATE_TEST_SUITE_P(Table, PatternsOnRealTrace, ::testing::Range<size_t>(0, table().size()),
                         [](const auto& info) {
                           return test::traceTestName(info.param, table()[info.param].trace);
                         });

TEST(PatternsRealTraces, SstMacroHasOneAllToAllPerParity) {
  const PatternReport r = analyzeFile(fs::path(MTF_DATA_DIR) / "otf2/sst-macro-mpi/traces.otf2");
  std::set<std::string> groups;
  for (const auto& u : r.known) groups.insert(u.parameters.at("group"));
  EXPECT_EQ(groups, (std::set<std::string>{"0,2,4,6,8", "1,3,5,7,9"})) << reportText(r, 0);
}

// ../shared (present here and in CI, absent in a bare clone).
fs::path shared(const std::string& relative) {
  return fs::path(MTF_SHARED_DIR) / "traces" / relative;
}

TEST(PatternsSharedTraces, CasitaJacobiIsAPairwiseExchange) {
  const fs::path trace = shared("otf2/casita-jacobi-gpu");
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is absent (bare clone)";
  // Its main loop: 1,000 iterations of MPI_Sendrecv between ranks 0 and 1 and an Allreduce.
  const PatternReport r = analyzeFile(trace);
  expectFound(r,
              {"", {"pairwise"}, {{"pairwise", {{"pairs", "1"}, {"collectives", "Allreduce"}}}}});
  ASSERT_FALSE(r.known.empty());
  EXPECT_EQ(r.known[0].occurrences, 1000u);
}

TEST(PatternsSharedTraces, ProfetLuleshIsA3dHalo) {
  const fs::path trace = shared("paraver/profet-lulesh");
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is absent (bare clone)";
  const PatternReport r = analyzeFile(trace / "lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv");
  expectFound(r, {"", {"mesh3d"}, {{"mesh3d", {{"grid", "2x2x2"}, {"neighbours", "26"}}}}});
}

TEST(PatternsSharedTraces, CasitaMpiTagsIsAGather) {
  const fs::path trace = shared("otf2/casita-mpi-tags");
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is absent (bare clone)";
  // Every rank sends its tagged messages to rank 0 (its matrix has one column).
  expectFound(analyzeFile(trace), {"", {"gather"}, {{"gather", {{"root", "0"}}}}});
}

TEST(PatternsSharedTraces, CasitaCloverLeafOnTwoRanksIsAPairwiseExchange) {
  const fs::path trace = shared("otf2/casita-cloverleaf-openacc");
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is absent (bare clone)";
  // Two chunks side by side: each halo exchange is with the one other rank.
  expectFound(analyzeFile(trace), {"", {"pairwise"}, {{"pairwise", {{"pairs", "1"}}}}});
}

}  // namespace
}  // namespace mtf::patterns
