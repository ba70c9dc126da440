// The structure of real traces (issue 29): on every real trace of tests/data and ../shared
// whose NLR outer loop spans most of the run, some level holds a periodic zone whose period
// is within 5% of NLR's iteration time and whose iterations are the program's.
//
// The table is the truth, written from `mtf loops` (NLR's outermost loop on rank 0, timed
// from its first to its last iteration's first communication event) and from the programs;
// the test also checks that NLR still finds that loop, so the truth cannot drift with mtf.
// Left out, their NLR loop spanning little of the run or none: sst-macro-mpi (an MPI
// coverage test: NLR's outer loop is 3 iterations of 6 us), pipit-ping-pong(-papi) (message
// sizes double every step: no loop for NLR), casita-mpi-tags, the OpenMP, GPU-only and
// task traces (no MPI loop).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "nlr/nlr_sink.hpp"
#include "registry/registry.hpp"
#include "structure/analyse.hpp"
#include "structure/loop_relation.hpp"

namespace mtf::structure {
namespace {

namespace fs = std::filesystem;

struct RealTrace {
  const char* root;  // "data" (tests/data) or "shared" (../shared/traces)
  const char* path;
  uint64_t programIterations;  // iterations of the program's main loop in the trace
  uint64_t nlrIterations;      // NLR's outermost loop on rank 0
  double iterationMs;          // NLR's iteration time
  const char* why;             // where the figures come from
};

const RealTrace kTraces[] = {
    {"shared", "otf2/casita-jacobi-gpu", 1000, 1000, 43.119,
     "Jacobi on 2 GPUs: Allreduce + Sendrecv every iteration; lengths vary by ~97%"},
    {"shared", "otf2/casita-cloverleaf-openacc", 25, 10, 185.598,
     "CloverLeaf: 25 time steps, a field summary (5 Reduces) every 10: NLR's loops 10+10+5"},
    {"data", "paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv", 5, 4, 324.170,
     "LULESH chopped to 5 iterations: NLR's loop holds the 4 whose start is whole"},
};

fs::path locate(const RealTrace& t) {
  return t.root == std::string_view("data") ? fs::path(MTF_DATA_DIR) / t.path
                                            : fs::path(MTF_SHARED_DIR) / "traces" / t.path;
}

void collectZones(const std::vector<StructureRegion>& regions,
                  std::vector<const StructureRegion*>& out) {
  for (const auto& r : regions) {
    if (r.kind == RegionKind::Periodic) out.push_back(&r);
    collectZones(r.children, out);
  }
}

std::string describe(const std::vector<const StructureRegion*>& zones) {
  std::string text;
  for (const auto* z : zones)
    text += " " + std::to_string(z->iterations) + "x" + std::to_string(z->period);
  return text.empty() ? " none" : text;
}

class RealStructure : public ::testing::TestWithParam<RealTrace> {};

TEST_P(RealStructure, SomeLevelHoldsTheMainIteration) {
  const RealTrace& t = GetParam();
  const fs::path trace = locate(t);
  if (!fs::exists(trace)) GTEST_SKIP() << trace << " is absent (bare clone without ../shared)";
  nlr::SignatureOptions signatures;
  signatures.selection = nlr::EventSelection::Communication;
  signatures.canonicalCallOrder = true;
  nlr::NlrSink loops(nlr::NlrOptions{}, signatures);
  auto open = [&] { return openTrace(trace, ReadOptions{}); };
  const Analysis a = analyse(open, AnalyseRequest{}, &loops);
  const double ticksPerMs = static_cast<double>(a.run.defs.clock.resolution) / 1000.0;

  // The truth still holds: NLR finds the loop of the table.
  const auto outer = outermostLoop(loops.results());
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->iterations, t.nlrIterations);
  SymbolTimes times(
      outer->location,
      {outer->firstSymbol, outer->firstSymbol + (outer->iterations - 1) * outer->bodySymbols});
  open()->read(times);
  ASSERT_TRUE(times.timeOf(0) && times.timeOf(1));
  const double nlrMs = static_cast<double>(*times.timeOf(1) - *times.timeOf(0)) /
                       static_cast<double>(outer->iterations - 1) / ticksPerMs;
  EXPECT_NEAR(nlrMs, t.iterationMs, 0.001 * t.iterationMs);

  std::vector<const StructureRegion*> zones;
  collectZones(a.regions, zones);
  const auto match = std::find_if(zones.begin(), zones.end(), [&](const StructureRegion* z) {
    const double ms = static_cast<double>(z->period) / ticksPerMs;
    return std::abs(ms - t.iterationMs) <= 0.05 * t.iterationMs;
  });
  ASSERT_NE(match, zones.end()) << t.why
                                << "; zones (iterations x period ticks):" << describe(zones);
  EXPECT_LE(std::abs(static_cast<int64_t>((*match)->iterations) -
                     static_cast<int64_t>(t.programIterations)),
            1)
      << t.why;
}

INSTANTIATE_TEST_SUITE_P(Table, RealStructure, ::testing::ValuesIn(kTraces),
                         [](const ::testing::TestParamInfo<RealTrace>& info) {
                           // The trace's folder: "otf2/casita-jacobi-gpu" -> casita_jacobi_gpu.
                           const fs::path path(info.param.path);
                           std::string name;
                           for (char c : (++path.begin())->string())
                             name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace mtf::structure
