// The k-way merge of the record sorter: which of k sorted sources holds the smallest head
// key. A loser tree: each internal node keeps the loser of the match played there, so
// replacing the winner's head replays only its leaf-to-root path, one comparison a level
// (a binary heap's sift takes two), and keys compare as single 128-bit integers.
// The runner-up (the smallest key but the winner's) is kept too: a winner whose next key
// stays below it wins again with no replay (a source's records often come in a row).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace mtf::paraver {

class LoserTree {
 public:
  using Key = unsigned __int128;
  // An exhausted source's key, above every real key (see keyOf).
  static constexpr Key kDone = ~Key{0};
  // (time, sequence) in that order of significance; `sequence` must stay below 2^64 - 1.
  static Key keyOf(uint64_t time, uint64_t sequence) { return (Key{time} << 64) | sequence; }

  // `heads`: each source's first key (kDone for an empty one).
  explicit LoserTree(const std::vector<Key>& heads) : sources_(heads.size()) {
    if (sources_ == 0) return;
    losers_.resize(sources_);
    std::vector<Node> winners(2 * sources_);
    for (size_t i = 0; i < sources_; ++i) winners[sources_ + i] = {heads[i], i};
    for (size_t node = sources_ - 1; node > 0; --node) {
      Node a = winners[2 * node], b = winners[2 * node + 1];
      if (b.key < a.key) std::swap(a, b);
      winners[node] = a;
      losers_[node] = b;
    }
    top_ = winners[1];  // with one source, its leaf
    runnerUp_ = runnerUpOf(top_.source);
  }
  bool empty() const { return top_.key == kDone; }
  size_t top() const { return top_.source; }
  // The top source's next head (kDone: it has no more). For sources whose heads take
  // turns at random (time-ordered input: the locations' records interleave), each level
  // swaps through masks, not a branch: a mispredicted branch a level cost more than the
  // masks (a merge of 48 interleaved sources: 37% less time).
  void replaceTopInterleaved(Key next) {
    if (next < runnerUp_) {
      top_.key = next;
      return;
    }
    Key key = next;
    uint64_t source = top_.source;
    for (size_t node = (top_.source + sources_) / 2; node > 0; node /= 2) {
      Node& loser = losers_[node];
      const uint64_t mask = uint64_t{0} - static_cast<uint64_t>(loser.key < key);
      const Key keyFlip = (loser.key ^ key) & ((Key{mask} << 64) | mask);
      const uint64_t sourceFlip = (loser.source ^ source) & mask;
      loser.key ^= keyFlip;
      key ^= keyFlip;
      loser.source ^= sourceFlip;
      source ^= sourceFlip;
    }
    top_ = {key, source};
    runnerUp_ = runnerUpOf(source);
  }
  // The same with a branch a level: faster where one source wins many times in a row
  // (input location after location), as the branch is then predicted.
  void replaceTop(Key next) {
    if (next < runnerUp_) {
      top_.key = next;
      return;
    }
    Node moved{next, top_.source};
    for (size_t node = (top_.source + sources_) / 2; node > 0; node /= 2)
      if (losers_[node].key < moved.key) std::swap(losers_[node], moved);
    top_ = moved;
    runnerUp_ = runnerUpOf(moved.source);
  }

 private:
  struct Node {
    Key key = kDone;
    uint64_t source = 0;
  };
  // Every other source lost once, at one node; the runner-up lost to the winner only, so
  // at a node of the winner's path: the smallest of their losers.
  Key runnerUpOf(uint64_t winner) const {
    Key smallest = kDone;
    for (size_t node = (winner + sources_) / 2; node > 0; node /= 2)
      smallest = std::min(smallest, losers_[node].key);
    return smallest;
  }
  size_t sources_;
  std::vector<Node> losers_;  // internal nodes 1 .. sources_ - 1; leaves are implicit
  Node top_;
  Key runnerUp_ = kDone;
};

}  // namespace mtf::paraver
