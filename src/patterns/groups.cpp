#include "patterns/groups.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace mtf::patterns {

int64_t RankGroup::localOf(int64_t worldRank) const {
  const auto it = std::lower_bound(ranks.begin(), ranks.end(), worldRank);
  return it != ranks.end() && *it == worldRank ? int64_t(it - ranks.begin()) : -1;
}

const RankGroup* GroupIndex::groupOf(int64_t worldRank) const {
  for (const RankGroup& g : groups)
    if (g.localOf(worldRank) >= 0) return &g;
  return nullptr;
}

bool classifiable(const CommPattern& cp) {
  return !cp.collectiveOnly && cp.frequency >= 2;
}

GroupIndex groupIndex(const std::vector<CommPattern>& cps) {
  GroupIndex ix;
  for (const CommPattern& cp : cps)
    if (classifiable(cp))
      for (const auto& [from, to] : cp.edges) ix.active.insert(ix.active.end(), {from, to});
  std::sort(ix.active.begin(), ix.active.end());
  ix.active.erase(std::unique(ix.active.begin(), ix.active.end()), ix.active.end());
  // Union-find over the positions of the active ranks.
  std::vector<size_t> parent(ix.active.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  auto position = [&](int64_t r) {
    return size_t(std::lower_bound(ix.active.begin(), ix.active.end(), r) - ix.active.begin());
  };
  for (const CommPattern& cp : cps)
    if (classifiable(cp))
      for (const auto& [from, to] : cp.edges) parent[find(position(from))] = find(position(to));
  std::map<size_t, RankGroup> byRoot;
  for (size_t i = 0; i < ix.active.size(); ++i) byRoot[find(i)].ranks.push_back(ix.active[i]);
  for (auto& [root, g] : byRoot) ix.groups.push_back(std::move(g));
  std::sort(ix.groups.begin(), ix.groups.end(),
            [](const RankGroup& a, const RankGroup& b) { return a.ranks[0] < b.ranks[0]; });
  return ix;
}

std::vector<int64_t> rankSetOf(const CommPattern& cp) {
  std::vector<int64_t> out = cp.ranks;
  for (const auto& [from, to] : cp.edges) out.insert(out.end(), {from, to});
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool localEdges(const CommPattern& cp, const RankGroup& g,
                std::vector<std::pair<int64_t, int64_t>>& out) {
  out.clear();
  for (const auto& [from, to] : cp.edges) {
    const int64_t a = g.localOf(from), b = g.localOf(to);
    if (a < 0 || b < 0) return false;
    out.emplace_back(a, b);
  }
  std::sort(out.begin(), out.end());  // a monotone renumbering keeps them unique
  return true;
}

std::string ranksText(const std::vector<int64_t>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace mtf::patterns
