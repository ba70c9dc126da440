// Issue 20, end to end: `mtf graph` on every real trace of tests/data and on generated
// traces, in every output mode. Each GraphML output is validated against the GraphML
// schema (schema/graphml, xmllint), and every output, GraphML or DOT, is read
// by networkx (check_graph.py, run by Debian's /usr/bin/python3), which checks it against
// counts it takes from the trace's `mtf dump`: the message edges' counts sum to the
// messages, each process's communication nodes' counts to its MPI calls.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../data/real_traces.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

const std::string kPython = "/usr/bin/python3";
const std::string kChecker = std::string(MTF_SOURCE_DIR) + "/tests/cli/check_graph.py";
const std::string kSchemaDir = std::string(MTF_SOURCE_DIR) + "/schema/graphml";

struct Mode {
  const char* name;
  const char* flags;
  bool dot;
};
const Mode kModes[] = {{"ptag", "", false},
                       {"per-process", "--per-process", false},
                       {"folded", "--fold-ranks", false},
                       {"dot", "--dot", true},
                       {"dot-per-process", "--dot --per-process", true},
                       {"dot-folded", "--dot --fold-ranks", true}};

std::string missingTool() {
  if (run(kPython + " -c 'import networkx, pydot'").status != 0)
    return "/usr/bin/python3 with networkx and pydot (python3-networkx, python3-pydot)";
  if (run("xmllint --version").status != 0) return "xmllint (libxml2-utils)";
  return "";
}

void expectValidGraphml(const std::string& file) {
  const CommandResult r =
      run("XML_CATALOG_FILES=" + kSchemaDir + "/catalog.xml xmllint --nonet --noout --schema " +
          kSchemaDir + "/graphml.xsd " + file);
  EXPECT_EQ(r.status, 0) << r.output;
}

// Writes every mode's output of `trace` into `dir` and checks each (one networkx run for all).
void checkEveryOutput(const std::string& trace, const std::string& dir) {
  const std::string dump = dir + "/dump.txt";
  ASSERT_EQ(run(mtfProgram() + " dump '" + trace + "' > " + dump, false).status, 0);
  std::string outputs;
  for (const Mode& mode : kModes) {
    SCOPED_TRACE(mode.name);
    const std::string out = dir + "/" + mode.name + (mode.dot ? ".dot" : ".graphml");
    const CommandResult made =
        run(mtfProgram() + " -q graph '" + trace + "' -o " + out + " " + mode.flags);
    ASSERT_EQ(made.status, 0) << made.output;
    if (!mode.dot) expectValidGraphml(out);
    outputs += " " + out;
  }
  const CommandResult checked = run(kPython + " " + kChecker + " " + dump + outputs);
  EXPECT_EQ(checked.status, 0) << checked.output;
}

class GraphRealTrace : public ::testing::TestWithParam<std::string> {};

// breadthTraces(); of the sanitizer suite's subset, not sst-macro-mpi and qsort: their
// graphs take networkx longest to check (12 s and 7 s of the family's 35 s in a gcc run),
// Python's work, the same in every build, while `mtf graph` takes under a second.
std::vector<std::string> graphTraces() {
  std::vector<std::string> kept;
  for (const std::string& path : breadthTraces()) {
#ifdef MTF_TEST_TRACE_SUBSET
    if (path.find("sst-macro") != std::string::npos || path.find("qsort") != std::string::npos)
      continue;
#endif
    kept.push_back(path);
  }
  return kept;
}

TEST_P(GraphRealTrace, NetworkxReadsEveryOutputAndItsCountsMatchTheEvents) {
  if (const std::string missing = missingTool(); !missing.empty()) GTEST_SKIP() << missing;
  checkEveryOutput(
      std::string(MTF_DATA_DIR) + "/" + GetParam(),
      freshTempDir("graph-real-" + std::to_string(std::hash<std::string>()(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(Real, GraphRealTrace, ::testing::ValuesIn(graphTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return traceTestName(info.index, info.param);
                         });

struct Generated {
  const char* name;
  const char* command;  // mtf-gen arguments before -o
  const char* output;   // file name (its extension picks the format)
};
const Generated kGenerated[] = {
    {"wavefront", "wavefront --ranks 6 --iterations 4 --inner 3", "t.otf2"},
    {"wavefront_split_self",
     "wavefront --ranks 4 --iterations 3 --inner 2 --split-comms "
     "--self-messages",
     "t.otf2"},
    {"ring_paraver", "ring --ranks 5 --iterations 4", "t.prv"},
    {"butterfly_tau", "butterfly --ranks 8 --iterations 3 --to tau", "tau"},
    {"halo_mtf", "halo --grid 3x2 --iterations 4", "t.mtf"},
    {"master_worker", "master-worker --ranks 5 --iterations 3", "t.otf2"},
    {"noisy_wavefront", "wavefront --ranks 4 --iterations 5 --inner 2 --noise 0.3", "t.otf2"},
};

class GraphGenerated : public ::testing::TestWithParam<Generated> {};

TEST_P(GraphGenerated, NetworkxReadsEveryOutputAndItsCountsMatchTheEvents) {
  if (const std::string missing = missingTool(); !missing.empty()) GTEST_SKIP() << missing;
  const Generated g = GetParam();
  const std::string dir = freshTempDir(std::string("graph-gen-") + g.name);
  const std::string trace = dir + "/" + g.output;
  const CommandResult made = run(genProgram() + " " + g.command + " -o " + trace);
  ASSERT_EQ(made.status, 0) << made.output;
  checkEveryOutput(trace, dir);
}

INSTANTIATE_TEST_SUITE_P(Kernels, GraphGenerated, ::testing::ValuesIn(kGenerated),
                         [](const ::testing::TestParamInfo<Generated>& info) {
                           return std::string(info.param.name);
                         });

// The checker is not a formality: a graph checked against another trace's events fails.
TEST(GraphCheck, FailsOnAnotherTracesCounts) {
  if (const std::string missing = missingTool(); !missing.empty()) GTEST_SKIP() << missing;
  const std::string dir = freshTempDir("graph-check-negative");
  ASSERT_EQ(run(genProgram() + " ring --ranks 4 --iterations 3 -o " + dir + "/a.otf2").status, 0);
  ASSERT_EQ(run(genProgram() + " ring --ranks 4 --iterations 4 -o " + dir + "/b.otf2").status, 0);
  ASSERT_EQ(run(mtfProgram() + " dump " + dir + "/a.otf2 > " + dir + "/a.txt", false).status, 0);
  ASSERT_EQ(run(mtfProgram() + " -q graph " + dir + "/b.otf2 -o " + dir + "/b.graphml").status, 0);
  const CommandResult r =
      run(kPython + " " + kChecker + " " + dir + "/a.txt " + dir + "/b.graphml");
  EXPECT_EQ(r.status, 1) << r.output;
}

size_t nodesIn(const std::string& graphml) {
  size_t n = 0;
  for (size_t at = graphml.find("<node "); at != std::string::npos;
       at = graphml.find("<node ", at + 1))
    ++n;
  return n;
}

// Acceptance: the folded PTAG of the 16-rank wavefront does not grow with the iterations,
// from OTF2 and from MTF (whose stored loops add loop markers).
TEST(GraphFold, WavefrontNodesDoNotGrowWithIterations) {
  const std::string dir = freshTempDir("graph-fold");
  for (const std::string extension : {".otf2", ".mtf"}) {
    std::vector<size_t> nodes;
    for (const std::string iterations : {"249", "2490"}) {
      const std::string trace = dir + "/wf" + iterations + extension;
      const std::string out = dir + "/wf" + iterations + extension + ".graphml";
      ASSERT_EQ(run(genProgram() + " wavefront --ranks 16 --inner 2 --iterations " + iterations +
                    " -o " + trace)
                    .status,
                0);
      const CommandResult r = run(mtfProgram() + " -q graph " + trace + " --fold-ranks -o " + out);
      ASSERT_EQ(r.status, 0) << r.output;
      nodes.push_back(nodesIn(readFile(out)));
    }
    EXPECT_GT(nodes[0], 2u) << extension;
    EXPECT_EQ(nodes[0], nodes[1]) << extension;
  }
}

TEST(GraphPaths, StartToEndIsOnePathPerRankOfTheSameProgram) {
  const std::string dir = freshTempDir("graph-paths");
  ASSERT_EQ(run(genProgram() + " ring --ranks 4 --iterations 3 -o " + dir + "/r.otf2").status, 0);
  const CommandResult r = run(mtfProgram() + " graph " + dir + "/r.otf2 --paths START END");
  ASSERT_EQ(r.status, 0) << r.output;
  // Even ranks send first, odd ranks receive first: two distinct paths, two ranks each.
  EXPECT_NE(r.output.find("causal paths from START to END: 2 distinct, 4 in all\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("ranks 0,2\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ranks 1,3\n"), std::string::npos) << r.output;
}

TEST(GraphPaths, AnIterationBetweenTwoAllreduces) {
  const std::string dir = freshTempDir("graph-paths-iter");
  ASSERT_EQ(
      run(genProgram() + " wavefront --ranks 4 --iterations 6 --inner 2 -o " + dir + "/w.otf2")
          .status,
      0);
  const CommandResult r = run(mtfProgram() + " graph " + dir +
                              "/w.otf2 --paths main/iteration/MPI_Allreduce MPI_Allreduce");
  ASSERT_EQ(r.status, 0) << r.output;
  // 6 iterations per rank: 5 from one iteration's Allreduce to the next, and one from the
  // last to the final Allreduce after the loop, on each of the 4 ranks.
  EXPECT_NE(r.output.find(" 24 in all"), std::string::npos) << r.output;
  // Ranks 1 and 2 receive and send in each of the 2 inner steps of a sweep: one block x2.
  EXPECT_NE(r.output.find("  [ main/iteration/sweep_forward/MPI_Recv\n"
                          "    main/iteration/sweep_forward/MPI_Send ] x2\n"),
            std::string::npos)
      << r.output;
}

// Loop markers from the loops an MTF file stores: the wavefront's outer loop is entered once
// per rank, each sweep's inner loop once per iteration and rank; between a loop's entry
// and exit, --paths gives one iteration block per rank kind.
TEST(GraphLoops, MtfStoredLoopsBecomeMarkersAndPathBounds) {
  const std::string dir = freshTempDir("graph-loops");
  ASSERT_EQ(
      run(genProgram() + " wavefront --ranks 4 --iterations 10 --inner 8 -o " + dir + "/w.mtf")
          .status,
      0);
  const CommandResult made =
      run(mtfProgram() + " graph " + dir + "/w.mtf --fold-ranks -o " + dir + "/w.graphml");
  ASSERT_EQ(made.status, 0) << made.output;
  EXPECT_EQ(made.output.find("warning"), std::string::npos) << made.output;
  const std::string xml = readFile(dir + "/w.graphml");
  for (const char* marker : {"main/LOOP_ENTRY L12</data>\n      <data key=\"n_kind\">marker"
                             "</data>\n      <data key=\"n_ranks\">0-3</data>\n      <data "
                             "key=\"n_count\">4<",
                             "main/iteration/sweep_forward/LOOP_EXIT L12.2</data>\n      <data "
                             "key=\"n_kind\">marker</data>\n      <data key=\"n_ranks\">0-3</data>"
                             "\n      <data key=\"n_count\">40<"})
    EXPECT_NE(xml.find(marker), std::string::npos) << marker;
  const CommandResult paths =
      run(mtfProgram() + " graph " + dir + "/w.mtf --paths 'LOOP_ENTRY L12.2' 'LOOP_EXIT L12.2'");
  ASSERT_EQ(paths.status, 0) << paths.output;
  EXPECT_NE(paths.output.find(": 3 distinct, 40 in all\n"), std::string::npos) << paths.output;
  EXPECT_NE(paths.output.find("  [ main/iteration/sweep_forward/MPI_Recv\n"
                              "    main/iteration/sweep_forward/MPI_Send ] x8\n"),
            std::string::npos)
      << paths.output;
}

TEST(GraphCli, UsageAndInputErrors) {
  const std::string dir = freshTempDir("graph-errors");
  ASSERT_EQ(run(genProgram() + " ring --ranks 2 --iterations 1 -o " + dir + "/r.otf2").status, 0);
  const std::string graph = mtfProgram() + " graph " + dir + "/r.otf2";
  EXPECT_EQ(run(graph).status, 1);  // neither -o nor --paths
  EXPECT_EQ(run(graph + " -o " + dir + "/g.graphml --per-process --fold-ranks").status, 1);
  EXPECT_EQ(run(graph + " --paths MPI_Nothing END").status, 2);
  EXPECT_EQ(run(mtfProgram() + " graph " + dir + "/missing.otf2 -o " + dir + "/x.graphml").status,
            2);
  ASSERT_EQ(run(graph + " -o " + dir + "/g.graphml").status, 0);
  EXPECT_EQ(run(graph + " -o " + dir + "/g.graphml").status, 3) << "exists: needs --force";
  EXPECT_EQ(run(graph + " -o " + dir + "/g.graphml --force").status, 0);
}

}  // namespace
