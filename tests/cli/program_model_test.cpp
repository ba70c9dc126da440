// Issue 18: `mtf model` (the program-wide model) on generated kernels, and `mtf matrix`
// (computed from the model) against the messages counted from the events by other means
// (otf2-print, the .prv communication records, TAU's .trc records).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"
#include "data/real_traces.hpp"

using namespace mtf::test;

namespace {

std::string generate(const std::string& kernel, const std::string& options,
                     const std::string& name) {
  const std::string dir = freshTempDir("program-" + name);
  const std::string out = dir + "/" + kernel + ".otf2";
  const CommandResult r =
      run(genProgram() + " " + kernel + " " + options + " -q --force -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  return out;
}

nlohmann::json modelJson(const std::string& trace) {
  const CommandResult r = run(mtfProgram() + " -q model --json " + trace, false);
  EXPECT_EQ(r.status, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

std::vector<nlohmann::json> loopsIn(const nlohmann::json& constructs) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& c : constructs)
    if (c.at("type") == "loop") out.push_back(c);
  return out;
}

struct WavefrontCase {
  int ranks, iterations, inner;
};

class WavefrontModel : public ::testing::TestWithParam<WavefrontCase> {};

// One outer loop over every rank whose body holds the two sweeps, each over every rank.
TEST_P(WavefrontModel, OneOuterLoopWithTwoSweeps) {
  const WavefrontCase w = GetParam();
  const std::string trace =
      generate("wavefront",
               "--ranks " + std::to_string(w.ranks) + " --iterations " +
                   std::to_string(w.iterations) + " --inner " + std::to_string(w.inner),
               "wavefront-" + std::to_string(w.ranks) + "-" + std::to_string(w.iterations));
  const nlohmann::json model = modelJson(trace);
  const std::string all = "0-" + std::to_string(w.ranks - 1);
  const std::vector<nlohmann::json> outer = loopsIn(model.at("constructs"));
  ASSERT_EQ(outer.size(), 1u) << model.dump(1);
  EXPECT_EQ(outer[0].at("count"), w.iterations);
  EXPECT_EQ(outer[0].at("ranks"), all);
  const std::vector<nlohmann::json> sweeps = loopsIn(outer[0].at("body"));
  ASSERT_EQ(sweeps.size(), 2u) << outer[0].dump(1);
  for (const nlohmann::json& s : sweeps) {
    EXPECT_EQ(s.at("count"), w.inner);
    EXPECT_EQ(s.at("ranks"), all);
  }
}

// The acceptance sizes are 249 x 160 and 2,490 iterations: the inner count is smaller
// here to keep the test short (the full sizes are measured in the README).
INSTANTIATE_TEST_SUITE_P(Sizes, WavefrontModel,
                         ::testing::Values(WavefrontCase{16, 249, 6}, WavefrontCase{16, 2490, 3},
                                           WavefrontCase{64, 249, 3}));

TEST(ProgramModel, WavefrontTextPrintsTheRanges) {
  const std::string trace = generate("wavefront", "--ranks 16 --iterations 249 --inner 5", "text");
  const std::string text = run(mtfProgram() + " -q model " + trace, false).output;
  EXPECT_NE(text.find("\nfor i0 = 1 to 249 [0-15]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  for i1 = 1 to 5 [0-15]\n"), std::string::npos) << text;
  const std::string positions = run(mtfProgram() + " -q model --positions " + trace, false).output;
  EXPECT_NE(positions.find("\n  2.0 for i1 = 1 to 5 [0-15]\n"), std::string::npos) << positions;
}

// Where the merge finds nothing regular across processes (master/worker with random sizes:
// NLR itself finds no loops), the model says how much of it stays on single processes.
TEST(ProgramModel, SaysHowMuchStaysOnSingleProcesses) {
  const std::string irregular = generate("master-worker", "--ranks 6", "mw");
  const auto mw = nlohmann::json::parse(run(mtfProgram() + " -q model --json " + irregular).output);
  const uint64_t constructs = mw["constructs"].size();
  EXPECT_GT(mw["single_process_constructs"].get<uint64_t>() * 2, constructs);
  const std::string regular = generate("ring", "--ranks 6 --iterations 5", "ring6");
  const auto ring = nlohmann::json::parse(run(mtfProgram() + " -q model --json " + regular).output);
  // Only the root's Bcast: the wrap-around message (5 -> 0) is (r+1) mod 6 like the others.
  EXPECT_EQ(ring["single_process_constructs"].get<uint64_t>(), 1u);
  EXPECT_NE(run(mtfProgram() + " -q model " + irregular).output.find(" on a single process)\n"),
            std::string::npos);
}

class KernelModel : public ::testing::TestWithParam<const char*> {};

TEST_P(KernelModel, OneOuterLoopCoversEveryRank) {
  const std::string trace = generate(GetParam(), "--ranks 16 --iterations 9", GetParam());
  const std::vector<nlohmann::json> outer = loopsIn(modelJson(trace).at("constructs"));
  ASSERT_EQ(outer.size(), 1u);
  EXPECT_EQ(outer[0].at("count"), 9);
  EXPECT_EQ(outer[0].at("ranks"), "0-15");
}

INSTANTIATE_TEST_SUITE_P(Kernels, KernelModel, ::testing::Values("ring", "butterfly", "halo"));

MessageMatrix csvMatrix(const std::string& trace) {
  const CommandResult r = run(mtfProgram() + " -q matrix --csv " + trace, false);
  EXPECT_EQ(r.status, 0) << r.output;
  std::istringstream in(r.output);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "sender,receiver,messages,bytes");
  MessageMatrix m;
  while (std::getline(in, line)) {
    int64_t s = 0, rcv = 0;
    uint64_t messages = 0, bytes = 0;
    char c1, c2, c3;
    std::istringstream fields(line);
    fields >> s >> c1 >> rcv >> c2 >> messages >> c3 >> bytes;
    EXPECT_TRUE(fields && c1 == ',' && c2 == ',' && c3 == ',') << line;
    m[{s, rcv}] = messages;
  }
  return m;
}

class RealTraceMatrix : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceMatrix, EqualsTheMessagesOfTheEvents) {
  const std::string path = std::string(MTF_DATA_DIR) + "/" + GetParam();
  MessageMatrix truth;
  if (GetParam().rfind("otf2/", 0) == 0) {
    if (run("command -v otf2-print", true).status != 0) GTEST_SKIP() << "no otf2-print";
    truth = otf2Matrices(path).sends;
  } else if (GetParam().rfind("paraver/", 0) == 0) {
    truth = paraverMatrix(path);
  } else {
    truth = tauMatrices(path).sends;
  }
  EXPECT_EQ(describe(csvMatrix(path)), describe(truth));
}

INSTANTIATE_TEST_SUITE_P(Traces, RealTraceMatrix, ::testing::ValuesIn(realTraces()),
                         [](const auto& info) { return traceTestName(info.index, info.param); });

class GeneratedMatrix : public ::testing::TestWithParam<const char*> {};

TEST_P(GeneratedMatrix, EqualsTheMessagesOfTheEvents) {
  if (run("command -v otf2-print", true).status != 0) GTEST_SKIP() << "no otf2-print";
  const std::string trace = generate(GetParam(), "--ranks 16 --iterations 4", GetParam());
  const MessageMatrix truth = otf2Matrices(trace).sends;
  ASSERT_GT(total(truth), 0u);
  EXPECT_EQ(describe(csvMatrix(trace)), describe(truth));
}

INSTANTIATE_TEST_SUITE_P(Kernels, GeneratedMatrix,
                         ::testing::Values("wavefront", "ring", "butterfly", "halo",
                                           "master-worker"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// The matrix of one construct over the run: the forward sweep (position 2.0) of a 4x4
// wavefront sends east and south `iterations x inner` times from rank 0, nothing west.
TEST(ProgramMatrix, OfOneConstruct) {
  const std::string trace = generate("wavefront", "--ranks 16 --iterations 7 --inner 5", "one");
  const CommandResult r = run(mtfProgram() + " -q matrix --json --construct 2.0 " + trace, false);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  MessageMatrix m;
  for (const nlohmann::json& c : j.at("cells"))
    m[{c.at("sender"), c.at("receiver")}] = c.at("messages");
  EXPECT_EQ(m.at({0, 1}), 35u);
  EXPECT_EQ(m.at({0, 4}), 35u);
  EXPECT_EQ(m.count({1, 0}), 0u);
  EXPECT_EQ(run(mtfProgram() + " -q matrix --construct 9.9 " + trace).status, 1);
}

// On .mtf (read as events) the model is the same as on the trace it was converted from.
TEST(ProgramModel, SameOnMtf) {
  const std::string trace = generate("halo", "--ranks 9 --iterations 5", "mtf");
  const std::string mtf = trace + ".mtf";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + trace + " --to mtf -o " + mtf).status, 0);
  EXPECT_EQ(run(mtfProgram() + " -q model " + mtf, false).output,
            run(mtfProgram() + " -q model " + trace, false).output);
}

}  // namespace

namespace {

// The drawing: valid XML (xmllint, libxml2), rendered by rsvg-convert, loop counts shown.
TEST(ProgramSvg, ValidRendersAndShowsTheCounts) {
  if (run("command -v xmllint && command -v rsvg-convert", true).status != 0)
    GTEST_SKIP() << "needs xmllint (libxml2-utils) and rsvg-convert (librsvg2-bin)";
  for (const auto& [ranks, iterations] : {std::pair{"16", "249"}, std::pair{"256", "19"}}) {
    const std::string trace = generate(
        "wavefront", std::string("--ranks ") + ranks + " --iterations " + iterations + " --inner 5",
        std::string("svg-") + ranks);
    const std::string svg = trace + ".svg", png = trace + ".png";
    ASSERT_EQ(run(mtfProgram() + " -q model " + trace + " --svg " + svg).status, 0);
    EXPECT_EQ(run("xmllint --noout " + svg).status, 0) << ranks;
    const CommandResult r = run("rsvg-convert -o " + png + " " + svg);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_GT(readFile(png).size(), 1000u);
    const std::string text = readFile(svg);
    EXPECT_NE(text.find(std::string("class=\"count\">") + iterations + "</text>"),
              std::string::npos);
    EXPECT_NE(text.find("class=\"count\">5</text>"), std::string::npos);
    // An existing file is replaced only with --force.
    EXPECT_EQ(run(mtfProgram() + " -q model " + trace + " --svg " + svg).status, 3);
    EXPECT_EQ(run(mtfProgram() + " -q model " + trace + " --svg " + svg + " --force").status, 0);
  }
}

}  // namespace

namespace {

// `mtf convert` stores the program model in MTF archives (binary and XML); `mtf
// model` reads it from there (saying so on stderr) and prints what it prints on the trace.
// With loops the writers derive the model's nests from the loops' NLR, without them the
// model has an NLR of its own: both give the same model.
TEST(ProgramModel, StoredInMtfArchives) {
  const std::string trace = generate("wavefront", "--ranks 9 --iterations 6 --inner 4", "stored");
  const std::string expected = run(mtfProgram() + " -q model --positions " + trace, false).output;
  for (const std::string extension : {".mtf", ".mtf.xml", ".noloops.mtf", ".noloops.mtf.xml"}) {
    const std::string archive = trace + extension;
    const std::string flags = extension.starts_with(".noloops") ? " --no-loops" : "";
    ASSERT_EQ(run(mtfProgram() + " -q convert" + flags + " " + trace + " -o " + archive).status, 0);
    const CommandResult r = run(mtfProgram() + " model --positions " + archive + " 2>&1");
    EXPECT_NE(r.output.find("mtf: program model stored in"), std::string::npos) << extension;
    EXPECT_EQ(run(mtfProgram() + " -q model --positions " + archive, false).output, expected)
        << extension;
    EXPECT_EQ(run(mtfProgram() + " -q model --recompute --positions " + archive, false).output,
              expected)
        << extension;
    EXPECT_EQ(run(mtfProgram() + " -q matrix --csv " + archive, false).output,
              run(mtfProgram() + " -q matrix --csv " + trace, false).output);
    EXPECT_EQ(run(mtfProgram() + " -q validate " + archive).status, 0) << extension;
  }
  const std::string plain = trace + ".plain.mtf";
  ASSERT_EQ(run(mtfProgram() + " -q convert --no-model " + trace + " -o " + plain).status, 0);
  EXPECT_EQ(run(mtfProgram() + " model " + plain + " 2>&1").output.find("stored"),
            std::string::npos);
}

}  // namespace
