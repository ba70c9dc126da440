#include "patterns/comm.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>

namespace mtf::patterns {
namespace {

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t find(size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(size_t a, size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<size_t> parent_;
};

struct Index {
  std::vector<size_t> base;  // first node id of each location
  std::unordered_map<int64_t, uint32_t> locationOfRank;
  // per location: symbol -> patterns (within the considered ones) holding it
  std::vector<std::unordered_map<SymbolId, std::vector<uint32_t>>> holders;
  size_t nodes = 0;
};

Index buildIndex(const std::vector<LocationPatterns>& locs, size_t perLocation) {
  Index ix;
  ix.holders.resize(locs.size());
  for (uint32_t l = 0; l < locs.size(); ++l) {
    ix.base.push_back(ix.nodes);
    const size_t count = std::min(perLocation, locs[l].patterns.size());
    ix.nodes += count;
    if (locs[l].rank >= 0) ix.locationOfRank[locs[l].rank] = l;
    for (uint32_t p = 0; p < count; ++p) {
      std::set<SymbolId> distinct(locs[l].patterns[p].symbols.begin(),
                                  locs[l].patterns[p].symbols.end());
      for (SymbolId s : distinct) ix.holders[l][s].push_back(p);
    }
  }
  return ix;
}

// The partner pattern to join `p` with: closest frequency, then shortest.
int64_t bestPartner(const ProcessPattern& p, const std::vector<uint32_t>& candidates,
                    const LocationPatterns& partner) {
  int64_t best = -1;
  double bestScore = 0;
  for (uint32_t c : candidates) {
    const ProcessPattern& q = partner.patterns[c];
    const double score = std::fabs(std::log(double(q.frequency) / double(p.frequency))) +
                         1e-6 * double(q.symbols.size());
    if (best < 0 || score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

bool hasPointToPoint(const ProcessPattern& p, const SymbolTable& symbols) {
  return std::any_of(p.symbols.begin(), p.symbols.end(),
                     [&](SymbolId s) { return symbols.symbol(s).isPointToPoint(); });
}

// The partner event of `sym` seen from rank `rank`: S b <-> R a.
std::optional<SymbolId> oppositeOf(SymbolId sym, int64_t rank, const SymbolTable& symbols) {
  CommSymbol opposite = symbols.symbol(sym);
  if (!opposite.isPointToPoint() || opposite.partner < 0) return std::nullopt;
  opposite.kind = opposite.kind == SymbolKind::Send ? SymbolKind::Recv : SymbolKind::Send;
  opposite.partner = rank;
  return symbols.find(opposite);
}

// Joins p (location l) with its best partner pattern q only when p is q's best partner
// too (mutual choice): one-sided choices chain loop bodies, iterations and everything in
// between into one pattern.
void joinThroughPartners(const std::vector<LocationPatterns>& locs, const SymbolTable& symbols,
                         const Index& ix, UnionFind& uf) {
  for (uint32_t l = 0; l < locs.size(); ++l) {
    if (locs[l].rank < 0) continue;
    for (const auto& [sym, holders] : ix.holders[l]) {
      const std::optional<SymbolId> opposite = oppositeOf(sym, locs[l].rank, symbols);
      if (!opposite) continue;
      const auto partnerLoc = ix.locationOfRank.find(symbols.symbol(sym).partner);
      if (partnerLoc == ix.locationOfRank.end()) continue;
      const uint32_t pl = partnerLoc->second;
      const auto cands = ix.holders[pl].find(*opposite);
      if (cands == ix.holders[pl].end()) continue;
      for (uint32_t p : holders) {
        const int64_t q = bestPartner(locs[l].patterns[p], cands->second, locs[pl]);
        if (q < 0) continue;
        const int64_t back = bestPartner(locs[pl].patterns[size_t(q)], holders, locs[l]);
        if (back == int64_t(p)) uf.unite(ix.base[l] + p, ix.base[pl] + size_t(q));
      }
    }
  }
}

void joinCollectives(const std::vector<LocationPatterns>& locs, const SymbolTable& symbols,
                     const Index& ix, UnionFind& uf) {
  std::map<std::vector<SymbolId>, size_t> firstNode;
  for (uint32_t l = 0; l < locs.size(); ++l) {
    const size_t count =
        ix.base.size() > l + 1 ? ix.base[l + 1] - ix.base[l] : ix.nodes - ix.base[l];
    for (uint32_t p = 0; p < count; ++p) {
      const ProcessPattern& pat = locs[l].patterns[p];
      if (hasPointToPoint(pat, symbols)) continue;
      const auto [it, inserted] = firstNode.try_emplace(pat.symbols, ix.base[l] + p);
      if (!inserted) uf.unite(ix.base[l] + p, it->second);
    }
  }
}

void addMember(CommPattern& cp, const LocationPatterns& loc, const ProcessPattern& p,
               PatternRef ref, const SymbolTable& symbols) {
  const bool first = cp.members.empty();
  cp.members.push_back(ref);
  cp.frequency = first ? p.frequency : std::min(cp.frequency, p.frequency);
  cp.eventsCovered += p.eventsCovered;
  cp.firstTime = first ? p.firstTime : std::min(cp.firstTime, p.firstTime);
  cp.lastTime = first ? p.lastTime : std::max(cp.lastTime, p.lastTime);
  if (loc.rank >= 0) cp.ranks.push_back(loc.rank);
  for (SymbolId s : p.symbols) {
    const CommSymbol& cs = symbols.symbol(s);
    if (!cs.isPointToPoint() || cs.partner < 0 || loc.rank < 0) continue;
    cp.edges.push_back(cs.kind == SymbolKind::Send ? std::make_pair(loc.rank, cs.partner)
                                                   : std::make_pair(cs.partner, loc.rank));
  }
}

template <typename T>
void sortUnique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

std::vector<CommPattern> assembleCommPatterns(const std::vector<LocationPatterns>& locs,
                                              const SymbolTable& symbols,
                                              const AssembleOptions& options) {
  const Index ix = buildIndex(locs, options.patternsPerLocation);
  UnionFind uf(ix.nodes);
  joinThroughPartners(locs, symbols, ix, uf);
  joinCollectives(locs, symbols, ix, uf);

  std::map<size_t, CommPattern> byRoot;
  for (uint32_t l = 0; l < locs.size(); ++l) {
    const size_t count = std::min(options.patternsPerLocation, locs[l].patterns.size());
    for (uint32_t p = 0; p < count; ++p)
      addMember(byRoot[uf.find(ix.base[l] + p)], locs[l], locs[l].patterns[p], {l, p}, symbols);
  }
  std::vector<CommPattern> out;
  for (auto& [root, cp] : byRoot) {
    sortUnique(cp.ranks);
    sortUnique(cp.edges);
    cp.collectiveOnly = cp.edges.empty();
    // A pattern of one process whose partners repeat nothing is not a communication
    // pattern; collective sequences of one process are kept (single-rank programs).
    if (cp.ranks.size() < 2 && !cp.collectiveOnly) continue;
    out.push_back(std::move(cp));
  }
  std::stable_sort(out.begin(), out.end(), [](const CommPattern& a, const CommPattern& b) {
    if (a.eventsCovered != b.eventsCovered) return a.eventsCovered > b.eventsCovered;
    if (a.frequency != b.frequency) return a.frequency > b.frequency;
    return a.ranks.size() > b.ranks.size();
  });
  return out;
}

const ProcessPattern* mainMemberOf(const CommPattern& cp, int64_t rank,
                                   const std::vector<LocationPatterns>& locations) {
  const ProcessPattern* best = nullptr;
  for (const PatternRef& m : cp.members) {
    if (locations[m.location].rank != rank) continue;
    const ProcessPattern& p = locations[m.location].patterns[m.pattern];
    if (!best || p.eventsCovered > best->eventsCovered) best = &p;
  }
  return best;
}

}  // namespace mtf::patterns
