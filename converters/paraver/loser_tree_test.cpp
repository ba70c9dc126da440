#include "converters/paraver/loser_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace mtf::paraver {
namespace {

using Key = LoserTree::Key;

// Merges sorted sources through the tree (`interleaved`: replaceTopInterleaved, its
// branch-free replay); the result must be all keys in order.
std::vector<Key> merged(const std::vector<std::vector<Key>>& sources, bool interleaved = false) {
  std::vector<size_t> next(sources.size(), 0);
  std::vector<Key> heads;
  for (const auto& s : sources) heads.push_back(s.empty() ? LoserTree::kDone : s[0]);
  LoserTree tree(heads);
  std::vector<Key> out;
  while (!tree.empty()) {
    const size_t i = tree.top();
    out.push_back(sources[i][next[i]++]);
    const Key head = next[i] < sources[i].size() ? sources[i][next[i]] : LoserTree::kDone;
    if (interleaved) {
      tree.replaceTopInterleaved(head);
    } else {
      tree.replaceTop(head);
    }
  }
  return out;
}

TEST(LoserTree, MergesAnyNumberOfSortedSourcesInOrder) {
  std::mt19937_64 random(48);
  for (size_t count : {0, 1, 2, 3, 5, 7, 8, 48, 100}) {
    std::vector<std::vector<Key>> sources(count);
    std::vector<Key> all;
    uint64_t sequence = 0;
    for (auto& s : sources) {
      const size_t n = random() % 50;  // some sources stay empty
      for (size_t j = 0; j < n; ++j) {
        // Few distinct times, so the sequence decides between equal times.
        s.push_back(LoserTree::keyOf(random() % 20, sequence++));
        all.push_back(s.back());
      }
      std::sort(s.begin(), s.end());
    }
    std::sort(all.begin(), all.end());
    EXPECT_EQ(merged(sources), all) << count << " sources";
    EXPECT_EQ(merged(sources, true), all) << count << " sources, interleaved";
  }
}

// Keys dealt to the sources in runs of random lengths (a source wins several times in a
// row, then the runner-up takes over): the merge with and without replays must agree.
TEST(LoserTree, RunsOfOneSourceAndTheirEnds) {
  std::mt19937_64 random(17);
  for (size_t count : {1, 2, 3, 16, 33}) {
    std::vector<std::vector<Key>> sources(count);
    std::vector<Key> all;
    for (uint64_t key = 0; key < 3000;) {
      auto& source = sources[random() % count];
      for (size_t run = 1 + random() % 6; run > 0; --run) {
        source.push_back(LoserTree::keyOf(key / 4, key));  // equal times too
        all.push_back(source.back());
        ++key;
      }
    }
    EXPECT_EQ(merged(sources), all) << count << " sources";
    EXPECT_EQ(merged(sources, true), all) << count << " sources, interleaved";
  }
}

TEST(LoserTree, TimeOutweighsSequenceAndTheLargestTimeIsNotDone) {
  EXPECT_LT(LoserTree::keyOf(1, ~uint64_t{0} - 1), LoserTree::keyOf(2, 0));
  EXPECT_LT(LoserTree::keyOf(~uint64_t{0}, ~uint64_t{0} - 1), LoserTree::kDone);
  const Key last = LoserTree::keyOf(~uint64_t{0}, 7);
  for (bool interleaved : {false, true})
    EXPECT_EQ(merged({{last}, {}, {LoserTree::keyOf(0, 9)}}, interleaved),
              (std::vector<Key>{LoserTree::keyOf(0, 9), last}));
}

}  // namespace
}  // namespace mtf::paraver
