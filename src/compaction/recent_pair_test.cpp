// RecentPair: which value is tried first, and which one a new value replaces.
#include "compaction/recent_pair.hpp"

#include <gtest/gtest.h>

namespace mtf::compaction {
namespace {

using Pair = RecentPair<uint32_t, ~uint32_t{0}>;
constexpr uint32_t kNone = ~uint32_t{0};

// The value tried first, then the other.
std::array<uint32_t, 2> order(const Pair& p) {
  return {p[p.first()], p[1 - p.first()]};
}

TEST(RecentPair, StartsEmpty) {
  const Pair p;
  EXPECT_EQ(p[0], kNone);
  EXPECT_EQ(p[1], kNone);
}

TEST(RecentPair, FillsEmptySlotsFirst) {
  Pair p;
  p.add(7);
  EXPECT_EQ(order(p), (std::array<uint32_t, 2>{7, kNone}));
  p.add(8);
  EXPECT_EQ(p[0] + p[1], 15u);
}

TEST(RecentPair, RepeatedValueIsTriedFirst) {
  Pair p;
  p.add(7);
  p.add(8);
  const int slot8 = p[0] == 8 ? 0 : 1;
  p.use(slot8);
  EXPECT_EQ(order(p)[0], 8u);
  p.use(slot8);
  EXPECT_EQ(order(p)[0], 8u);
}

TEST(RecentPair, AlternatingValuesAreTriedInTurn) {
  Pair p;
  p.add(7);
  p.add(8);  // 7, 8 came: 7 is next if they alternate
  for (int i = 0; i < 6; ++i) {
    const uint32_t expected = i % 2 == 0 ? 7 : 8;
    ASSERT_EQ(order(p)[0], expected) << i;
    p.use(p.first());
  }
}

TEST(RecentPair, NewValueReplacesTheOneThatDidNotComeLatest) {
  Pair p;
  p.add(7);
  p.add(8);
  p.use(p[0] == 7 ? 0 : 1);  // 7 came latest
  p.add(9);                  // replaces 8
  EXPECT_TRUE((p[0] == 7 && p[1] == 9) || (p[0] == 9 && p[1] == 7));
  EXPECT_EQ(order(p)[0], 7u);  // 7, 9 came: they may alternate
}

}  // namespace
}  // namespace mtf::compaction
