// The worked examples of the paper (seed 003): Figure 5 (detection) and Figure 6
// (matching with the n-gram filter).
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>

#include "patterns/detect.hpp"
#include "patterns/match.hpp"

namespace mtf::patterns {
namespace {

// Symbols for whitespace-separated tokens (each distinct token one id).
std::vector<SymbolId> tokens(const std::string& text, std::map<std::string, SymbolId>& ids) {
  std::istringstream in(text);
  std::vector<SymbolId> out;
  for (std::string t; in >> t;)
    out.push_back(ids.try_emplace(t, SymbolId(ids.size())).first->second);
  return out;
}

TEST(PaperFigure5, DetectsS2S3R2WithFrequency5) {
  std::map<std::string, SymbolId> ids;
  const auto trace = tokens("S2 S3 R2 S5 S2 S3 R2 S2 S3 R2 S2 S3 R2 S4 S2 S3 R2", ids);
  TandemCollapser collapser;
  for (size_t i = 0; i < trace.size(); ++i) collapser.push(trace[i], i, 100 * i);
  const CollapsedSequence seq = collapser.finish();
  const std::vector<ProcessPattern> found = findProcessPatterns(seq);
  ASSERT_EQ(found.size(), 1u);
  const ProcessPattern& p = found[0];
  EXPECT_EQ(p.symbols, (std::vector<SymbolId>{ids["S2"], ids["S3"], ids["R2"]}));
  EXPECT_EQ(p.frequency, 5u);
  // The paper numbers events from 1; positions here are 0-based event indices.
  std::vector<uint64_t> paperPositions;
  for (uint64_t pos : p.positions) paperPositions.push_back(pos + 1);
  EXPECT_EQ(paperPositions, (std::vector<uint64_t>{1, 5, 8, 11, 15}));
  EXPECT_EQ(p.eventsCovered, 15u);
  EXPECT_EQ(p.tandemCopies, 3u);
  EXPECT_EQ(p.lastTime, 1600u);
}

const char* kFigure6Trace = "a b c d m h k o b c d e f y e a b h d e f r s a b c d e f";

TEST(PaperFigure6, FilterThresholdIsThree) {
  MatchOptions o;
  o.maxDistance = 1;
  o.ngram = 2;
  EXPECT_EQ(sharedThreshold(6, o), 3);
}

// Shared bi-grams of each window, as the figure lists them (window numbers from 1).
TEST(PaperFigure6, SharedNgramsPerWindow) {
  std::map<std::string, SymbolId> ids;
  const auto pattern = tokens("a b c d e f", ids);
  const auto text = tokens(kFigure6Trace, ids);
  MatchOptions o;
  o.maxDistance = 1;
  o.shiftOnFirstNgram = false;
  o.jumpAfterMatch = false;
  std::vector<WindowStep> steps;
  matchWindows(pattern, text, o, &steps);
  ASSERT_EQ(steps.size(), 24u);  // windows 1..24 of length 6 over 29 symbols
  const std::map<size_t, uint32_t> figure = {{1, 3},  {2, 2},  {3, 1},  {4, 0}, {5, 1},
                                             {6, 2},  {7, 3},  {8, 4},  {9, 4}, {10, 3},
                                             {11, 2}, {16, 3}, {23, 4}, {24, 5}};
  for (const auto& [window, shared] : figure) EXPECT_EQ(steps[window - 1].shared, shared) << window;
}

TEST(PaperFigure6, EditDistancesOfVerifiedWindows) {
  std::map<std::string, SymbolId> ids;
  const auto pattern = tokens("a b c d e f", ids);
  const auto text = tokens(kFigure6Trace, ids);
  MatchOptions o;
  o.maxDistance = 1;
  o.shiftOnFirstNgram = false;
  o.jumpAfterMatch = false;
  std::vector<WindowStep> steps;
  matchWindows(pattern, text, o, &steps);
  // Figure: window 1 -> 2, 7 -> 3, 8 -> 1, 9 -> 2, 16 -> 1. Window 10 ("c d e f y e") is
  // listed with 5 there; its Levenshtein distance is 4 (insert a b, delete y e).
  const std::map<size_t, int64_t> distances = {{1, 2}, {7, 3}, {8, 1}, {9, 2}, {10, 4}, {16, 1}};
  for (const auto& [window, d] : distances) EXPECT_EQ(steps[window - 1].distance, d) << window;
  EXPECT_EQ(steps[2].distance, -1);  // window 3 shares one bi-gram: filtered out
}

TEST(PaperFigure6, MatchesWithShiftAndJump) {
  std::map<std::string, SymbolId> ids;
  const auto pattern = tokens("a b c d e f", ids);
  const auto text = tokens(kFigure6Trace, ids);
  MatchOptions o;
  o.maxDistance = 1;
  std::vector<WindowStep> steps;
  const auto matches = matchWindows(pattern, text, o, &steps);
  // Windows are numbered from 1 in the figure. Window 16 ("a b h d e f", distance 1) and
  // window 24 ("a b c d e f", distance 0) as the figure reports; window 8 ("o b c d e f")
  // is at distance 1 too, which the figure's distance column gives, so it matches.
  ASSERT_EQ(matches.size(), 3u);
  EXPECT_EQ(matches[0], (WindowMatch{7, 6, 1}));
  EXPECT_EQ(matches[1], (WindowMatch{15, 6, 1}));
  EXPECT_EQ(matches[2], (WindowMatch{23, 6, 0}));
  // Shifts by the first bi-gram "ab": window 14 -> 16 and window 22 -> 24 (the jump after
  // the match at 8 lands on 14; the one after 16 lands on 22).
  std::map<size_t, size_t> shifts;
  for (const WindowStep& s : steps)
    if (s.shift) shifts[s.start + 1] = s.shift;
  EXPECT_EQ(shifts, (std::map<size_t, size_t>{{14, 2}, {22, 2}}));
}

TEST(PaperFigure6, WindowTwelveShiftsToSixteenWithoutEarlierMatch) {
  std::map<std::string, SymbolId> ids;
  const auto pattern = tokens("a b c d e f", ids);
  const auto text = tokens(kFigure6Trace, ids);
  MatchOptions o;
  o.maxDistance = 0;  // exact: window 8 is not a match, the search reaches window 12
  std::vector<WindowStep> steps;
  const auto matches = matchWindows(pattern, text, o, &steps);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].start, 23u);
  bool shiftedAt12 = false;
  for (const WindowStep& s : steps)
    if (s.start == 11 && s.shift == 4) shiftedAt12 = true;
  EXPECT_TRUE(shiftedAt12);
}

}  // namespace
}  // namespace mtf::patterns
