#include "patterns/match.hpp"

#include <algorithm>
#include <unordered_map>

namespace mtf::patterns {
namespace {

// The pattern's n-grams: a dense index per distinct n-gram and its count.
class NgramTable {
 public:
  NgramTable(const std::vector<SymbolId>& pattern, uint32_t n) : n_(n) {
    for (size_t i = 0; i + n <= pattern.size(); ++i) {
      const auto [it, inserted] = index_.try_emplace(key(pattern, i), index_.size());
      if (inserted) counts_.push_back(0);
      ++counts_[it->second];
      if (i == 0) first_ = it->second;
    }
    seen_.assign(counts_.size(), 0);
  }

  // Shared n-grams of text[start, start+m) and the position of the pattern's first
  // n-gram in the window (0 if absent or at the start).
  uint32_t shared(const std::vector<SymbolId>& text, size_t start, size_t m, size_t& firstAt) {
    std::fill(seen_.begin(), seen_.end(), 0);
    uint32_t count = 0;
    firstAt = 0;
    bool firstFound = false;
    for (size_t i = start; i + n_ <= start + m; ++i) {
      const auto it = index_.find(key(text, i));
      if (it == index_.end()) continue;
      if (it->second == first_ && !firstFound) {
        firstFound = true;
        firstAt = i - start;
      }
      if (seen_[it->second]++ < counts_[it->second]) ++count;
    }
    return count;
  }

 private:
  uint64_t key(const std::vector<SymbolId>& s, size_t at) const {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t j = 0; j < n_; ++j) h = (h ^ s[at + j]) * 0x100000001b3ull;
    return h;
  }
  uint32_t n_;
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<uint32_t> counts_, seen_;
  size_t first_ = ~size_t{0};
};

}  // namespace

uint32_t editDistance(const std::vector<SymbolId>& a, const std::vector<SymbolId>& b) {
  std::vector<uint32_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<uint32_t>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<uint32_t>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const uint32_t substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
    }
    prev.swap(cur);
  }
  return prev[b.size()];
}

int64_t sharedThreshold(size_t m, const MatchOptions& o) {
  return static_cast<int64_t>(m) - o.ngram + 1 - static_cast<int64_t>(o.maxDistance) * o.ngram;
}

std::vector<WindowMatch> matchWindows(const std::vector<SymbolId>& pattern,
                                      const std::vector<SymbolId>& text,
                                      const MatchOptions& options, std::vector<WindowStep>* steps) {
  std::vector<WindowMatch> out;
  const size_t m = pattern.size();
  if (m == 0 || text.size() < m) return out;
  const uint32_t n = std::max<uint32_t>(1, std::min<uint32_t>(options.ngram, uint32_t(m)));
  MatchOptions o = options;
  o.ngram = n;
  NgramTable table(pattern, n);
  const int64_t threshold = sharedThreshold(m, o);
  std::vector<SymbolId> window(m);
  size_t w = 0;
  while (w + m <= text.size()) {
    size_t firstAt = 0;
    WindowStep step{w, table.shared(text, w, m, firstAt), -1, 0};
    if (options.shiftOnFirstNgram && firstAt > 0) {
      step.shift = firstAt;
      if (steps) steps->push_back(step);
      w += firstAt;
      continue;
    }
    bool matched = false;
    if (static_cast<int64_t>(step.shared) >= threshold) {
      std::copy(text.begin() + w, text.begin() + w + m, window.begin());
      const uint32_t d = editDistance(pattern, window);
      step.distance = d;
      if (d <= options.maxDistance) {
        out.push_back({w, m, d});
        matched = true;
      }
    }
    if (steps) steps->push_back(step);
    w += matched && options.jumpAfterMatch ? m : 1;
  }
  return out;
}

}  // namespace mtf::patterns
