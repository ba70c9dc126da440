#include "converters/paraver/recent_cache.hpp"

#include <gtest/gtest.h>

#include <string>

namespace mtf::paraver {
namespace {

TEST(RecentCache, MissesUntilRemembered) {
  RecentCache<int, std::string, 4> cache;
  EXPECT_EQ(cache.find(0), nullptr);  // an empty cache's default keys are no entries
  EXPECT_EQ(cache.find(7), nullptr);
  cache.remember(7, "seven");
  ASSERT_NE(cache.find(7), nullptr);
  EXPECT_EQ(*cache.find(7), "seven");
  EXPECT_EQ(cache.find(0), nullptr);
  EXPECT_EQ(cache.find(8), nullptr);
}

TEST(RecentCache, HitsEveryEntryWhileNotFull) {
  RecentCache<int, int, 4> cache;
  for (int k = 1; k <= 4; ++k) cache.remember(k, 10 * k);
  for (int k = 1; k <= 4; ++k) {
    ASSERT_NE(cache.find(k), nullptr) << k;
    EXPECT_EQ(*cache.find(k), 10 * k);
  }
}

TEST(RecentCache, EvictsInTheOrderRemembered) {
  RecentCache<int, int, 3> cache;
  for (int k = 1; k <= 3; ++k) cache.remember(k, k);
  EXPECT_NE(cache.find(1), nullptr);  // a hit does not keep an entry longer
  cache.remember(4, 4);               // replaces 1, the oldest
  EXPECT_EQ(cache.find(1), nullptr);
  EXPECT_NE(cache.find(2), nullptr);
  cache.remember(5, 5);  // then 2
  cache.remember(6, 6);  // then 3
  EXPECT_EQ(cache.find(2), nullptr);
  EXPECT_EQ(cache.find(3), nullptr);
  for (int k = 4; k <= 6; ++k) EXPECT_NE(cache.find(k), nullptr) << k;
  cache.remember(7, 7);  // then 4 again: round robin
  EXPECT_EQ(cache.find(4), nullptr);
  EXPECT_EQ(*cache.find(7), 7);
}

struct PairKey {
  int a, b;
  bool operator==(const PairKey&) const = default;
};

TEST(RecentCache, ComparesWholeKeys) {
  RecentCache<PairKey, int, 2> cache;
  cache.remember({1, 2}, 12);
  EXPECT_EQ(cache.find({2, 1}), nullptr);
  EXPECT_EQ(cache.find({1, 3}), nullptr);
  EXPECT_EQ(*cache.find({1, 2}), 12);
}

}  // namespace
}  // namespace mtf::paraver
