// Issue 27: the .mtf writer stores the loop nests and the program model only where they
// summarise the events (converters/mtf/binary/stored_analyses.hpp); readers recompute the
// others. Checked here: the policy's decision on a regular generated trace (every nest
// stored), on an irregular one (none) and on a real trace (some), and
// that every reader shows the same with and without stored analyses. The reference is the
// MTF XML archive of the same trace, which always stores every nest and the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "../data/real_traces.hpp"
#include "cli/run_command.hpp"
#include "converters/mtf/binary/archive.hpp"
#include "nlr/loop_annotation.hpp"
#include "program/model_blob.hpp"

using namespace mtf::test;
namespace fs = std::filesystem;

namespace {

bool hasAnnotation(const std::vector<mtf::compaction::Annotation>& all, const std::string& name) {
  for (const mtf::compaction::Annotation& a : all)
    if (a.name == name) return true;
  return false;
}

// What the archive at `path` stores: per location (in order) whether it has a nest, and
// the trace-wide annotations.
struct Stored {
  std::vector<bool> nests;
  bool leftOutMarker = false;
  bool model = false;
};

Stored storedIn(const std::string& path) {
  const auto model = mtf::mtfbin::ArchiveReader(path).model();
  Stored s;
  for (const auto& l : model->locations)
    s.nests.push_back(hasAnnotation(l.annotations, mtf::nlr::kLoopAnnotationName));
  s.leftOutMarker = hasAnnotation(model->annotations, mtf::nlr::kLoopAnnotationName);
  s.model = hasAnnotation(model->annotations, mtf::program::kModelAnnotationName);
  return s;
}

std::string generated(const std::string& dir, const std::string& kind, const std::string& args) {
  const std::string trace = dir + "/" + kind + ".otf2";
  const CommandResult r = run(genProgram() + " " + kind + " " + args + " -o " + trace);
  EXPECT_EQ(r.status, 0) << r.output;
  return trace;
}

std::string output(const std::string& command) {
  const CommandResult r = run(command, false);
  EXPECT_EQ(r.status, 0) << command << "\n" << r.output;
  return r.output;
}

// `mtf loops` (text, JSON, one location), `model`, `graph` and `matrix` of `trace`'s .mtf
// equal those of its .mtf.xml (every analysis stored) and of `--recompute`.
void expectSameWithAndWithoutStored(const std::string& trace, const std::string& dir) {
  const std::string mtf = mtfProgram() + " -q ";
  const std::string bin = dir + "/t.mtf", xml = dir + "/t.mtf.xml";
  ASSERT_EQ(run(mtf + "convert '" + trace + "' -o " + bin).status, 0);
  ASSERT_EQ(run(mtf + "convert '" + trace + "' -o " + xml).status, 0);
  for (const std::string args : {"loops", "loops --json", "model --positions", "matrix --csv"})
    EXPECT_EQ(output(mtf + args + " " + bin), output(mtf + args + " " + xml)) << args;
  EXPECT_EQ(output(mtf + "model --positions " + bin),
            output(mtf + "model --recompute --positions " + bin));
  const auto model = mtf::mtfbin::ArchiveReader(bin).model();
  for (const auto& l : model->locations) {
    const std::string only = "loops --json --location " + std::to_string(l.location) + " ";
    EXPECT_EQ(output(mtf + only + bin), output(mtf + only + xml)) << l.location;
  }
  ASSERT_EQ(run(mtf + "graph " + bin + " -o " + dir + "/bin.graphml").status, 0);
  ASSERT_EQ(run(mtf + "graph " + xml + " -o " + dir + "/xml.graphml").status, 0);
  EXPECT_EQ(readFile(dir + "/bin.graphml"), readFile(dir + "/xml.graphml"));
}

// Converts `trace` (4 locations), checks that every nest and the model were stored, or
// none of them and the left-out marker instead, then that readers give the same either way.
void expectAllOrNoneStored(const std::string& trace, const std::string& dir, bool stored) {
  ASSERT_EQ(run(mtfProgram() + " -q convert " + trace + " -o " + dir + "/g.mtf").status, 0);
  const Stored s = storedIn(dir + "/g.mtf");
  ASSERT_EQ(s.nests.size(), 4u);
  for (bool nest : s.nests) EXPECT_EQ(nest, stored);
  EXPECT_EQ(s.leftOutMarker, !stored);
  EXPECT_EQ(s.model, stored);
  expectSameWithAndWithoutStored(trace, dir);
}

TEST(StoredAnalyses, RegularTraceStoresEveryNestAndTheModel) {
  const std::string dir = freshTempDir("stored-regular");
  const std::string trace = generated(dir, "wavefront", "--ranks 4 --iterations 50 --inner 40");
  expectAllOrNoneStored(trace, dir, true);
}

// Master/worker with tasks of random cost: every location's sequence (who finishes next,
// which worker gets which task) is irregular, its nest as long as its events.
TEST(StoredAnalyses, IrregularTraceLeavesTheAnalysesOutAndReadersRecompute) {
  const std::string dir = freshTempDir("stored-irregular");
  const std::string trace = generated(dir, "master-worker", "--ranks 4 --iterations 400");
  expectAllOrNoneStored(trace, dir, false);
}

// opencl-l9 (TAU): the host threads repeat their OpenCL calls (nests stored), the queues'
// few events are left out; readers join both.
TEST(StoredAnalyses, PartialStorageOnARealTrace) {
  const std::string dir = freshTempDir("stored-partial");
  const std::string trace = std::string(MTF_DATA_DIR) + "/tau/opencl-l9";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + trace + " -o " + dir + "/p.mtf").status, 0);
  const Stored s = storedIn(dir + "/p.mtf");
  size_t stored = 0;
  for (bool nest : s.nests) stored += nest;
  EXPECT_GT(stored, 0u);
  EXPECT_LT(stored, s.nests.size());
  EXPECT_TRUE(s.leftOutMarker);
  expectSameWithAndWithoutStored(trace, dir);
}

// --no-loops still stores no nest and no marker: readers then have no stored loops.
TEST(StoredAnalyses, NoLoopsStoresNothing) {
  const std::string dir = freshTempDir("stored-none");
  const std::string trace = generated(dir, "master-worker", "--ranks 4 --iterations 400");
  ASSERT_EQ(
      run(mtfProgram() + " -q convert --no-loops --no-model " + trace + " -o " + dir + "/n.mtf")
          .status,
      0);
  const Stored s = storedIn(dir + "/n.mtf");
  for (bool nest : s.nests) EXPECT_FALSE(nest);
  EXPECT_FALSE(s.leftOutMarker);
  EXPECT_FALSE(s.model);
  EXPECT_EQ(run(mtfProgram() + " loops " + dir + "/n.mtf 2>&1").output.find("stored"),
            std::string::npos);
}

class StoredAnalysesReal : public ::testing::TestWithParam<std::string> {};

TEST_P(StoredAnalysesReal, SameWithAndWithoutStored) {
  const std::string dir = freshTempDir("stored-real");
  expectSameWithAndWithoutStored(std::string(MTF_DATA_DIR) + "/" + GetParam(), dir);
}

INSTANTIATE_TEST_SUITE_P(Traces, StoredAnalysesReal, ::testing::ValuesIn(breadthTraces()),
                         [](const auto& info) { return traceTestName(info.index, info.param); });

// The input mtf reads for a trace folder of ../shared/traces/FORMAT/NAME.
std::string traceInput(const fs::path& dir, const std::string& format) {
  if (format == "tau") return dir.string();
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (format == "otf2" && entry.path().extension() == ".otf2") return entry.path().string();
    if (format == "paraver" && entry.path().extension() == ".prv") return entry.path().string();
  }
  return "";
}

// Built with MTF_TEST_TRACE_SUBSET (the sanitizer suite): only the small shared traces
// that tests/data does not hold (StoredAnalysesReal runs tests/data's subset): OTF2 with
// tags and with nested OpenMP regions, Paraver OpenMP, TAU with MPI. The large ones, with
// RMA and OpenMP thread events (casita-jacobi-gpu, casita-cloverleaf-openacc), are
// converted under the sanitizers by PatternsSharedTraces, RealStructure and ProgramForms.
bool inSharedSubset(const std::string& name) {
#ifdef MTF_TEST_TRACE_SUBSET
  static const char* const kSubset[] = {"otf2/casita-mpi-tags", "otf2/casita-ompt-nested",
                                        "paraver/par-mandel-dynamic", "tau/hecatoncheir"};
  return std::find(std::begin(kSubset), std::end(kSubset), name) != std::end(kSubset);
#else
  (void)name;
  return true;
#endif
}

// The traces of ../shared/traces mtf reads, as FORMAT/NAME, one test each (ctest runs
// them side by side); a single "none" when there are none, which skips with the reason.
std::vector<std::string> sharedTraces() {
  const fs::path shared = fs::path(MTF_SHARED_DIR) / "traces";
  std::vector<std::string> names;
  std::error_code absent;
  for (const std::string format : {"otf2", "paraver", "tau"})
    for (const auto& entry : fs::directory_iterator(shared / format, absent)) {
      const std::string name = format + "/" + entry.path().filename().string();
      if (inSharedSubset(name) && !traceInput(entry.path(), format).empty()) names.push_back(name);
    }
  std::sort(names.begin(), names.end());
  if (names.empty()) names.push_back("none");
  return names;
}

class StoredAnalysesShared : public ::testing::TestWithParam<std::string> {};

TEST_P(StoredAnalysesShared, SameWithAndWithoutStored) {
  const fs::path shared = fs::path(MTF_SHARED_DIR) / "traces";
  if (!fs::is_directory(shared))
    GTEST_SKIP() << "needs " << shared.string() << " (the project's shared folder)";
  if (GetParam() == "none") GTEST_SKIP() << shared.string() << " holds none of the traces";
  const std::string format = GetParam().substr(0, GetParam().find('/'));
  expectSameWithAndWithoutStored(traceInput(shared / GetParam(), format),
                                 freshTempDir("stored-shared"));
}

INSTANTIATE_TEST_SUITE_P(Traces, StoredAnalysesShared, ::testing::ValuesIn(sharedTraces()),
                         [](const auto& info) { return traceTestName(info.index, info.param); });

}  // namespace
