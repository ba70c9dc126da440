#include "patterns/repeats.hpp"

#include <algorithm>
#include <numeric>

namespace mtf::patterns {
namespace {

// One radix pass: stable sort of `order` by key[] in [0, buckets).
void countingSort(std::vector<uint32_t>& order, const std::vector<uint32_t>& key, size_t buckets,
                  std::vector<uint32_t>& scratch) {
  std::vector<uint32_t> count(buckets + 1, 0);
  for (uint32_t i : order) ++count[key[i] + 1];
  std::partial_sum(count.begin(), count.end(), count.begin());
  scratch.resize(order.size());
  for (uint32_t i : order) scratch[count[key[i]]++] = i;
  order.swap(scratch);
}

// Dense ranks of the symbols (alphabet compaction) so that buckets stay small.
std::vector<uint32_t> initialRanks(const std::vector<SymbolId>& s, size_t& classes) {
  std::vector<SymbolId> sorted(s);
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  std::vector<uint32_t> rank(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    rank[i] = static_cast<uint32_t>(std::lower_bound(sorted.begin(), sorted.end(), s[i]) -
                                    sorted.begin()) +
              1;  // 0 = past the end
  classes = sorted.size() + 1;
  return rank;
}

}  // namespace

std::vector<uint32_t> suffixArray(const std::vector<SymbolId>& s) {
  const size_t n = s.size();
  std::vector<uint32_t> sa(n);
  if (n == 0) return sa;
  size_t classes = 0;
  std::vector<uint32_t> rank = initialRanks(s, classes);
  std::iota(sa.begin(), sa.end(), 0u);
  std::vector<uint32_t> second(n), scratch, next(n);
  for (size_t k = 1;; k <<= 1) {
    for (size_t i = 0; i < n; ++i) second[i] = i + k < n ? rank[i + k] : 0;
    countingSort(sa, second, classes, scratch);
    countingSort(sa, rank, classes, scratch);
    next[sa[0]] = 1;
    for (size_t i = 1; i < n; ++i) {
      const bool same = rank[sa[i]] == rank[sa[i - 1]] && second[sa[i]] == second[sa[i - 1]];
      next[sa[i]] = next[sa[i - 1]] + (same ? 0 : 1);
    }
    rank.swap(next);
    classes = rank[sa[n - 1]] + 1;
    if (classes == n + 1 || k >= n) break;
  }
  return sa;
}

std::vector<uint32_t> lcpArray(const std::vector<SymbolId>& s, const std::vector<uint32_t>& sa) {
  const size_t n = s.size();
  std::vector<uint32_t> rank(n), lcp(n, 0);
  for (size_t i = 0; i < n; ++i) rank[sa[i]] = static_cast<uint32_t>(i);
  size_t h = 0;
  for (size_t i = 0; i < n; ++i) {
    if (rank[i] == 0) {
      h = 0;
      continue;
    }
    const size_t j = sa[rank[i] - 1];
    while (i + h < n && j + h < n && s[i + h] == s[j + h]) ++h;
    lcp[rank[i]] = static_cast<uint32_t>(h);
    if (h > 0) --h;
  }
  return lcp;
}

namespace {

// An lcp-interval on the traversal stack: suffixes sa[lb..] share `lcp` symbols.
struct Interval {
  uint32_t lcp;
  uint32_t lb;
  // Left context of the interval's suffixes: one symbol, or "diverse" (left-maximal).
  bool diverse = false;
  bool hasLeft = false;
  SymbolId left = 0;
};

void addLeft(Interval& iv, bool diverse, bool hasLeft, SymbolId left) {
  if (iv.diverse) return;
  if (diverse) {
    iv.diverse = true;
  } else if (hasLeft) {
    if (iv.hasLeft && iv.left != left) iv.diverse = true;
    iv.hasLeft = true;
    iv.left = left;
  }
}

std::vector<uint32_t> nonOverlapping(std::vector<uint32_t> starts, uint32_t length) {
  std::sort(starts.begin(), starts.end());
  std::vector<uint32_t> kept;
  for (uint32_t p : starts)
    if (kept.empty() || p >= kept.back() + length) kept.push_back(p);
  return kept;
}

}  // namespace

namespace {

// Bottom-up traversal of the lcp-intervals (Abouelhoda et al.); calls
// report(interval, right bound) for each. Leaf (suffix) i-1 is placed at step i, when the
// deepest interval containing it is known.
template <typename Report>
void traverseIntervals(const std::vector<SymbolId>& s, const std::vector<uint32_t>& sa,
                       const std::vector<uint32_t>& lcp, Report&& report) {
  const size_t n = s.size();
  // Left context of one suffix: none at position 0 (counts as diverse: the repeat can't
  // be extended to the left there).
  auto placeLeaf = [&](Interval& iv, uint32_t i) {
    addLeft(iv, sa[i] == 0, sa[i] != 0, sa[i] == 0 ? SymbolId{0} : s[sa[i] - 1]);
  };
  std::vector<Interval> stack{{0, 0}};
  for (uint32_t i = 1; i <= n; ++i) {
    const uint32_t cur = i < n ? lcp[i] : 0;
    const uint32_t leaf = i - 1;
    if (cur > stack.back().lcp) {
      stack.push_back({cur, leaf});
      placeLeaf(stack.back(), leaf);
      continue;
    }
    placeLeaf(stack.back(), leaf);
    uint32_t lb = leaf;
    bool havePopped = false;
    Interval popped{0, 0};
    while (cur < stack.back().lcp) {
      popped = stack.back();
      stack.pop_back();
      report(popped, leaf);
      lb = popped.lb;
      havePopped = true;
      // Propagating to an ancestor too early is harmless: left contexts only grow.
      addLeft(stack.back(), popped.diverse, popped.hasLeft, popped.left);
    }
    if (havePopped && cur > stack.back().lcp) {
      Interval fresh{cur, lb};
      addLeft(fresh, popped.diverse, popped.hasLeft, popped.left);
      stack.push_back(fresh);
    }
  }
}

}  // namespace

std::vector<MaximalRepeat> maximalRepeats(const std::vector<SymbolId>& s,
                                          const RepeatLimits& limits) {
  std::vector<MaximalRepeat> out;
  if (s.size() < 2) return out;
  const std::vector<uint32_t> sa = suffixArray(s);
  const std::vector<uint32_t> lcp = lcpArray(s, sa);
  traverseIntervals(s, sa, lcp, [&](const Interval& iv, uint32_t rb) {
    // Right-maximal by construction (an lcp-interval); left-maximal if diverse.
    if (!iv.diverse || iv.lcp < limits.minLength || out.size() >= limits.maxRepeats) return;
    std::vector<uint32_t> starts(sa.begin() + iv.lb, sa.begin() + rb + 1);
    std::vector<uint32_t> kept = nonOverlapping(std::move(starts), iv.lcp);
    if (kept.size() >= limits.minFrequency) out.push_back({iv.lcp, std::move(kept)});
  });
  return out;
}

}  // namespace mtf::patterns
