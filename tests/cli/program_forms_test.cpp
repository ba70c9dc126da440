// Issue 29: `mtf model` on real traces. Symmetric exchanges (rank 0 sends to 1 and 1 to
// 0), periodic rings and tori coalesce into constructs over all their ranks (the rank
// forms r xor 1, (r+k) mod P, torus neighbours), processes are counted as MPI ranks, and
// the matrix computed from such a model is still the trace's.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;
namespace fs = std::filesystem;

namespace {

const std::string kJacobi = std::string(MTF_SHARED_DIR) + "/traces/otf2/casita-jacobi-gpu";

nlohmann::json modelJson(const std::string& trace) {
  const CommandResult r = run(mtfProgram() + " -q model --json " + trace, false);
  EXPECT_EQ(r.status, 0) << r.output;
  return nlohmann::json::parse(r.output);
}

// Constructs at any depth of `constructs` that cover one rank only.
size_t singleRank(const nlohmann::json& constructs) {
  size_t n = 0;
  for (const nlohmann::json& c : constructs) {
    const std::string ranks = c.at("ranks");
    n += ranks.find_first_of("-,") == std::string::npos;
    if (c.contains("body")) n += singleRank(c.at("body"));
  }
  return n;
}

MessageMatrix modelMatrix(const std::string& trace) {
  const CommandResult r = run(mtfProgram() + " -q matrix --json " + trace, false);
  EXPECT_EQ(r.status, 0) << r.output;
  MessageMatrix m;
  const nlohmann::json j = nlohmann::json::parse(r.output);  // alive through the loop
  for (const nlohmann::json& c : j.at("cells"))
    m[{c.at("sender"), c.at("receiver")}] = c.at("messages");
  return m;
}

std::string anchorOf(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".otf2") return e.path().string();
  return dir + "/traces.otf2";
}

// Jacobi on 2 ranks (4 OpenMP threads and a CUDA stream each): 1,000 iterations of an
// Allreduce and a Sendrecv of the halo row with the other rank (0 <-> 1).
TEST(ProgramForms, JacobiMainLoopCoversBothRanks) {
  if (!fs::is_directory(kJacobi)) GTEST_SKIP() << "needs " << kJacobi << " (../shared)";
  const std::string trace = anchorOf(kJacobi);
  const nlohmann::json model = modelJson(trace);
  EXPECT_EQ(model.at("processes"), 2);
  EXPECT_EQ(model.at("locations"), 10);
  const nlohmann::json* main = nullptr;
  for (const nlohmann::json& c : model.at("constructs"))
    if (c.at("type") == "loop" && c.at("count") == 1000) main = &c;
  ASSERT_NE(main, nullptr) << model.dump(1);
  EXPECT_EQ(main->at("ranks"), "0-1");
  EXPECT_EQ(singleRank(main->at("body")), 0u) << main->dump(1);
  size_t paired = 0;
  for (const nlohmann::json& c : main->at("body"))
    if (c.value("partner_expression", "") == "r xor 1") ++paired;
  EXPECT_EQ(paired, 2u) << main->dump(1);  // the Sendrecv's send and receive
  const std::string text = run(mtfProgram() + " -q model " + trace, false).output;
  EXPECT_EQ(text.rfind("# program model: 2 processes, 10 locations, ", 0), 0u) << text;
  // 1,000 Sendrecvs: one message each way per iteration (otf2-print names the partners
  // by location here, 0 and 4, so the truth is written from the program).
  EXPECT_EQ(describe(modelMatrix(trace)), "0->1:1000 1->0:1000 ");
}

// The picture: one lane per rank, no lane for a thread or stream of no construct.
TEST(ProgramForms, JacobiSvgHasALanePerRank) {
  if (!fs::is_directory(kJacobi)) GTEST_SKIP() << "needs " << kJacobi << " (../shared)";
  const std::string svg = freshTempDir("forms-svg") + "/jacobi.svg";
  ASSERT_EQ(run(mtfProgram() + " -q model --svg " + svg + " " + anchorOf(kJacobi)).status, 0);
  const std::string text = readFile(svg);
  EXPECT_EQ(text.find(">L"), std::string::npos);  // no lane named by a location id
  EXPECT_NE(text.find(">0</text>"), std::string::npos);
  EXPECT_NE(text.find(">1</text>"), std::string::npos);
  EXPECT_NE(text.find("program model: 2 processes"), std::string::npos);
  size_t lanes = 0;
  for (size_t at = text.find("stroke=\"#bbb\""); at != std::string::npos;
       at = text.find("stroke=\"#bbb\"", at + 1))
    ++lanes;
  EXPECT_EQ(lanes, 2u);
}

std::string generate(const std::string& kernel, const std::string& options,
                     const std::string& name) {
  const std::string out = freshTempDir("forms-" + name) + "/" + kernel + ".otf2";
  const CommandResult r =
      run(genProgram() + " " + kernel + " " + options + " -q --force -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  return out;
}

// The main loop of a generated kernel: none of its constructs stays on a single rank,
// and the model's matrix is the one counted from the events.
void expectLoopOverAllRanks(const std::string& trace, int ranks,
                            const std::vector<std::string>& expressions) {
  const nlohmann::json model = modelJson(trace);
  EXPECT_EQ(model.at("processes"), ranks);
  const nlohmann::json* main = nullptr;
  for (const nlohmann::json& c : model.at("constructs"))
    if (c.at("type") == "loop") main = &c;
  ASSERT_NE(main, nullptr) << model.dump(1);
  EXPECT_EQ(singleRank(main->at("body")), 0u) << main->dump(1);
  for (const std::string& e : expressions)
    EXPECT_NE(main->dump().find("\"partner_expression\":\"" + e + "\""), std::string::npos)
        << e << main->dump(1);
  if (run("command -v otf2-print", true).status == 0) {
    EXPECT_EQ(describe(modelMatrix(trace)), describe(otf2Matrices(trace).sends)) << trace;
  }
}

// A ring of 6 wraps around (5 -> 0): the receive of every rank is one construct from
// (r-1) mod 6; the sends stay two (even ranks send before they receive, odd ones after).
TEST(ProgramForms, RingCoalescesAroundTheWrap) {
  expectLoopOverAllRanks(generate("ring", "--ranks 6 --iterations 5", "ring6"), 6,
                         {"(r-1) mod 6", "(r+1) mod 6"});
}

// A butterfly exchanges with rank XOR 2^s at stage s: on 2 ranks a symmetric pair
// exchange, on 8 three stages, each stage's sends and receives one construct.
TEST(ProgramForms, ButterflyStagesArePairs) {
  expectLoopOverAllRanks(generate("butterfly", "--ranks 2 --iterations 5", "bf2"), 2, {"r xor 1"});
  expectLoopOverAllRanks(generate("butterfly", "--ranks 8 --iterations 5", "bf8"), 8,
                         {"r xor 1", "r xor 2", "r xor 4"});
}

}  // namespace
