#include "patterns/repeats.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "patterns/collapse.hpp"

namespace mtf::patterns {
namespace {

std::vector<SymbolId> fromString(const std::string& s) {
  std::vector<SymbolId> out;
  for (char c : s) out.push_back(static_cast<SymbolId>(c));
  return out;
}

// Brute force: every maximal repeat (>= 2 symbols, >= 2 non-overlapping occurrences).
std::set<std::pair<std::vector<SymbolId>, size_t>> bruteForce(const std::vector<SymbolId>& s) {
  std::set<std::pair<std::vector<SymbolId>, size_t>> out;
  const size_t n = s.size();
  for (size_t len = 2; len <= n; ++len) {
    std::set<std::vector<SymbolId>> seen;
    for (size_t i = 0; i + len <= n; ++i) {
      std::vector<SymbolId> sub(s.begin() + i, s.begin() + i + len);
      if (!seen.insert(sub).second) continue;
      std::vector<size_t> occ;
      for (size_t j = 0; j + len <= n; ++j)
        if (std::equal(sub.begin(), sub.end(), s.begin() + j)) occ.push_back(j);
      if (occ.size() < 2) continue;
      std::set<SymbolId> left, right;
      bool leftEdge = false, rightEdge = false;
      for (size_t j : occ) {
        if (j == 0)
          leftEdge = true;
        else
          left.insert(s[j - 1]);
        if (j + len == n)
          rightEdge = true;
        else
          right.insert(s[j + len]);
      }
      const bool leftMax = leftEdge || left.size() > 1;
      const bool rightMax = rightEdge || right.size() > 1;
      if (!leftMax || !rightMax) continue;
      size_t kept = 0, end = 0;
      for (size_t j : occ)
        if (kept == 0 || j >= end) {
          ++kept;
          end = j + len;
        }
      if (kept >= 2) out.insert({sub, kept});
    }
  }
  return out;
}

TEST(MaximalRepeats, PaperExampleString) {
  // Section IV.B: in "ABCABCNABCDRABCMABCD", ABC is a maximal repeat (3 times at 1, 2,
  // 4 as the paper counts occurrences of ABC runs; 5 occurrences as substrings) and ABCD
  // a (super)maximal one.
  const auto s = fromString("ABCABCNABCDRABCMABCD");
  std::set<std::vector<SymbolId>> found;
  for (const auto& r : maximalRepeats(s))
    found.insert(
        std::vector<SymbolId>(s.begin() + r.positions[0], s.begin() + r.positions[0] + r.length));
  EXPECT_TRUE(found.count(fromString("ABC")));
  EXPECT_TRUE(found.count(fromString("ABCD")));
}

TEST(MaximalRepeats, AgreesWithBruteForceOnRandomStrings) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<SymbolId> s(5 + rng() % 40);
    const uint32_t alphabet = 2 + rng() % 3;
    for (auto& c : s) c = rng() % alphabet;
    std::set<std::pair<std::vector<SymbolId>, size_t>> got;
    for (const auto& r : maximalRepeats(s))
      got.insert(
          {std::vector<SymbolId>(s.begin() + r.positions[0], s.begin() + r.positions[0] + r.length),
           r.positions.size()});
    EXPECT_EQ(got, bruteForce(s)) << "round " << round;
  }
}

TEST(SuffixArray, SortsSuffixes) {
  const auto s = fromString("mississippi");
  const auto sa = suffixArray(s);
  for (size_t i = 1; i < sa.size(); ++i)
    EXPECT_TRUE(
        std::lexicographical_compare(s.begin() + sa[i - 1], s.end(), s.begin() + sa[i], s.end()));
}

TEST(TandemCollapser, NestedLoopsCollapseInsideOut) {
  // ((a b)^3 c)^40
  TandemCollapser c;
  uint64_t index = 0;
  for (int outer = 0; outer < 40; ++outer) {
    for (int inner = 0; inner < 3; ++inner) {
      c.push('a', index, index);
      ++index;
      c.push('b', index, index);
      ++index;
    }
    c.push('c', index, index);
    ++index;
  }
  const CollapsedSequence seq = c.finish();
  EXPECT_EQ(seq.symbols, fromString("abc"));
  ASSERT_EQ(seq.tandems.size(), 2u);
  std::map<uint32_t, uint64_t> copiesByPeriod;
  for (const auto& t : seq.tandems) copiesByPeriod[t.period] = t.copies;
  EXPECT_EQ(copiesByPeriod[2], 120u);
  EXPECT_EQ(copiesByPeriod[3], 40u);
  uint64_t events = 0;
  for (const Slot& s : seq.slots) events += s.events;
  EXPECT_EQ(events, index);
  EXPECT_EQ(seq.slots.back().lastEvent, index - 1);
}

}  // namespace
}  // namespace mtf::patterns
