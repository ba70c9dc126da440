// Issue 17 for the analyses: `mtf loops` and `mtf patterns` name message partners by
// world rank, also for messages on split communicators and on communicators over a
// COMM_SELF group. On the real trace every partner they print must be one the sender
// really sends to (or the receiver receives from), by otf2-print's reading of the trace.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/message_matrix.hpp"
#include "cli/run_command.hpp"

using namespace mtf::test;

namespace {

const std::string kSst = std::string(MTF_DATA_DIR) + "/otf2/sst-macro-mpi/traces.otf2";

// Every (sender, receiver) pair of the trace appears in the loop programs `mtf loops`
// prints for `input`, no other.
void expectLoopsNameTheTracePairs(const std::string& input) {
  const SidedMatrices truth = otf2Matrices(kSst);
  const CommandResult r = run(mtfProgram() + " -q loops " + input, false);
  ASSERT_EQ(r.status, 0) << r.output;
  RankPairs sends, receives;
  loopPairs(r.output, sends, receives);
  EXPECT_EQ(sends, pairsOf(truth.sends));
  EXPECT_EQ(receives, pairsOf(truth.receives));
}

TEST(CommAnalyses, LoopsNameEveryPartnerByItsWorldRank) {
  expectLoopsNameTheTracePairs(kSst);
}

// The loops an .mtf archive stores (found while compacting) name the same partners.
TEST(CommAnalyses, StoredLoopsOfTheArchiveNameEveryPartnerByItsWorldRank) {
  const std::string archive = freshTempDir("comm-loops") + "/sst.mtf";
  ASSERT_EQ(run(mtfProgram() + " -q convert " + kSst + " -o " + archive).status, 0);
  expectLoopsNameTheTracePairs(archive);
}

// "S9" / "R3" symbols of the repeating patterns: partner of the member's rank.
TEST(CommAnalyses, PatternsNameEveryPartnerByItsWorldRank) {
  const SidedMatrices truth = otf2Matrices(kSst);
  const RankPairs sent = pairsOf(truth.sends), received = pairsOf(truth.receives);
  const CommandResult r = run(mtfProgram() + " -q patterns --json --top 1000 " + kSst, false);
  ASSERT_EQ(r.status, 0) << r.output;
  const nlohmann::json report = nlohmann::json::parse(r.output);
  size_t checked = 0, unknown = 0;
  for (const auto& pattern : report.at("communication_patterns")) {
    for (const auto& edge : pattern.at("edges"))
      EXPECT_TRUE(sent.count({edge.at(0).get<int64_t>(), edge.at(1).get<int64_t>()})) << edge;
    for (const auto& member : pattern.at("members")) {
      const int64_t rank = member.at("rank").get<int64_t>();
      for (const auto& symbol : member.at("symbols")) {
        const std::string s = symbol.get<std::string>();
        if (s.size() < 2 || (s[0] != 'S' && s[0] != 'R')) continue;
        if (s[1] == '?') {  // a partner the analysis could not place
          ++unknown;
          continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(s[1]))) continue;
        const int64_t partner = std::stoll(s.substr(1));
        if (s[0] == 'S') {
          EXPECT_TRUE(sent.count({rank, partner})) << rank << " " << s;
        } else {
          EXPECT_TRUE(received.count({partner, rank})) << rank << " " << s;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);
  EXPECT_EQ(unknown, 0u);
}

}  // namespace
