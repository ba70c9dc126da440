// Every real trace in the repository, converted to every writable format, read back: the
// output must open in the format's own reader (otf2-print for OTF2, mtf's strict readers
// for the others) and hold the same events as the input, kind by kind, where the format
// holds the kind. What a writer reports as dropped (its "dropped:" list on stderr) is
// subtracted from what the input had: a conversion may lose only what it says it lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "../data/real_traces.hpp"
#include "cli/cut_counts.hpp"
#include "cli/run_command.hpp"
#include "converters/otf2/otf2_test_util.hpp"

using mtf::test::mtfProgram;
using mtf::test::run;

namespace {

// The kind classes each format holds and the "dropped:" report: cut_counts.hpp.
using mtf::test::byClass;
using mtf::test::classesHeldBy;
using mtf::test::countByKind;
using mtf::test::Counts;
using mtf::test::droppedByKind;
using mtf::test::parseDump;

struct Input {
  const char* name;
  const char* path;  // relative to tests/data
};

const Input kInputs[] = {
    {"ping_pong", "otf2/pipit-ping-pong/traces.otf2"},
    {"ping_pong_papi", "otf2/pipit-ping-pong-papi/traces.otf2"},
    {"sst_macro", "otf2/sst-macro-mpi/traces.otf2"},
    {"mi300", "otf2/fastotf2-mi300/traces.otf2"},
    {"lulesh", "paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv"},
    {"qsort", "paraver/paraver-kernel-qsort/qsort_beo3.prv"},
    {"qsort_gz", "paraver/paraver-kernel-qsort/qsort_beo3.prv.gz"},
    {"opencl_l5", "tau/opencl-l5"},
    {"opencl_l9", "tau/opencl-l9"}};

// kInputs, or the subset of them the sanitizer suite runs (real_traces.hpp: inTraceSubset).
std::vector<Input> breadthInputs() {
  std::vector<Input> kept;
  for (const Input& in : kInputs)
    if (mtf::test::inTraceSubset(in.path)) kept.push_back(in);
  return kept;
}

struct Output {
  const char* format;
  const char* name;  // output path inside the test's directory
};

const Output kOutputs[] = {{"otf2", "out/t.otf2"},
                           {"paraver", "out/t.prv"},
                           {"tau", "out/tau"},
                           {"mtf", "t.mtf"},
                           {"mtf-xml", "t.mtf.xml"}};

// Events by kind from `mtf dump --events-only`, a Metric counted once per value.
Counts eventsByKind(const std::string& dump) {
  return countByKind(parseDump(dump));
}

// The otf2-print record an mtf kind is written as: other formats' generic records go into
// OTF2 as parameter events, Paraver states as an ENTER and a LEAVE on a states location
// (converters/otf2/otf2_convention.hpp; the real traces' states all nest).
std::vector<std::string> otf2RecordsOf(const std::string& kind) {
  if (kind == "State") return {"ENTER", "LEAVE"};
  if (kind == "Generic") return {"PARAMETER_INT64"};
  return {mtf::otf2::testing::otf2PrintName(kind)};
}

std::string dumpOf(const std::string& path) {
  const auto r = run(mtfProgram() + " -q dump --events-only " + path, false);
  EXPECT_EQ(r.status, 0) << "mtf dump " << path;
  return r.output;
}

class CrossFormat : public ::testing::TestWithParam<std::tuple<Input, Output>> {};

TEST_P(CrossFormat, OutputReadsBackWithTheSameEvents) {
  const auto& [input, output] = GetParam();
  const std::string in = std::string(MTF_DATA_DIR) + "/" + input.path;
  const std::string dir =
      mtf::test::freshTempDir(std::string("xf-") + input.name + "-" + output.format);
  const std::string out = dir + "/" + output.name;
  // run() merges stderr into the output: the "dropped:" report is read from there.
  const auto conv = run(mtfProgram() + " convert " + in + " -o " + out + " --to " + output.format);
  ASSERT_EQ(conv.status, 0) << conv.output;

  const std::set<std::string> held = classesHeldBy(output.format);
  Counts expected = eventsByKind(dumpOf(in));
  for (const auto& [kind, n] : droppedByKind(conv.output))
    expected[kind] -= std::min(expected[kind], n);
  std::erase_if(expected, [](const auto& kv) { return kv.second == 0; });
  EXPECT_EQ(byClass(eventsByKind(dumpOf(out)), held), byClass(expected, held))
      << "stderr of the conversion:\n"
      << conv.output;

  if (std::string(output.format) == "otf2") {
    // OTF2's own reader must accept the archive and see what mtf's reader sees.
    const auto check = run("otf2-print --silent " + out);
    EXPECT_EQ(check.status, 0) << check.output;
    Counts printed;
    for (const auto& [kind, n] : eventsByKind(dumpOf(out)))
      if (kind != "Metric")
        for (const std::string& record : otf2RecordsOf(kind)) printed[record] += n;
    Counts fromPrint = mtf::otf2::testing::otf2PrintCounts(out);
    fromPrint.erase("METRIC");
    EXPECT_EQ(fromPrint, printed);
  }
}

void PrintTo(const Input& in, std::ostream* os) {
  *os << in.path;
}
void PrintTo(const Output& out, std::ostream* os) {
  *os << out.format;
}

std::string caseName(const ::testing::TestParamInfo<std::tuple<Input, Output>>& info) {
  std::string format = std::get<1>(info.param).format;
  std::replace(format.begin(), format.end(), '-', '_');
  return std::string(std::get<0>(info.param).name) + "_to_" + format;
}

INSTANTIATE_TEST_SUITE_P(RealTraces, CrossFormat,
                         ::testing::Combine(::testing::ValuesIn(breadthInputs()),
                                            ::testing::ValuesIn(kOutputs)),
                         caseName);

}  // namespace
