#include "patterns/classify.hpp"

#include <algorithm>
#include <set>

namespace mtf::patterns {
namespace {

using Edges = std::vector<std::pair<int64_t, int64_t>>;

struct Candidate {
  std::string pattern;
  std::map<std::string, std::string> parameters;
};

// Partners in the order a rank meets them, consecutive duplicates merged.
std::vector<int64_t> partnerStages(const ProcessPattern& p, const SymbolTable& symbols) {
  std::vector<int64_t> out;
  for (SymbolId id : p.symbols) {
    const CommSymbol& s = symbols.symbol(id);
    if (!s.isPointToPoint()) continue;
    if (out.empty() || out.back() != s.partner) out.push_back(s.partner);
  }
  return out;
}

bool butterflyOrder(const CommPattern& cp, const std::vector<LocationPatterns>& locs,
                    const SymbolTable& symbols, size_t p) {
  for (int64_t r : cp.ranks) {
    const ProcessPattern* main = mainMemberOf(cp, r, locs);
    if (!main) return false;
    std::vector<int64_t> up, got = partnerStages(*main, symbols);
    for (size_t bit = 1; bit < p; bit <<= 1) up.push_back(r ^ int64_t(bit));
    std::vector<int64_t> down(up.rbegin(), up.rend());
    // The pattern may start at any stage of the cycle: compare rotations.
    bool ok = false;
    for (size_t shift = 0; shift < up.size() && !ok; ++shift) {
      std::rotate(up.begin(), up.begin() + 1, up.end());
      std::rotate(down.begin(), down.begin() + 1, down.end());
      ok = got == up || got == down;
    }
    if (!ok) return false;
  }
  return true;
}

std::vector<Candidate> fittingPatterns(const CommPattern& cp,
                                       const std::vector<LocationPatterns>& locs,
                                       const SymbolTable& symbols, size_t p) {
  std::vector<Candidate> out;
  auto fits = [&](const PatternSpec& spec) {
    if (edgesOf(spec) == cp.edges) out.push_back({spec.name, spec.parameters});
    return !out.empty();
  };
  if (cp.ranks.size() != p || p < 2) return out;
  if (p >= 4 && (p & (p - 1)) == 0 && butterflyOrder(cp, locs, symbols, p) &&
      fits(*builtinPattern("butterfly", p)))
    return out;
  if (p >= 3 && (fits(ringPattern(p, 1)) || fits(ringPattern(p, -1)) || fits(ringPattern(p, 0))))
    return out;
  for (Grid g : gridShapes(p)) {
    for (int dx : {1, -1})
      for (int dy : {1, -1})
        if (fits(wavefrontPattern(g, p, dx, dy))) return out;
    if (fits(meshPattern(g, p, false)) || fits(meshPattern(g, p, true))) return out;
  }
  for (bool binomial : {false, true})
    for (bool reduce : {true, false})
      if (p >= 3 && fits(treePattern(p, reduce, binomial))) return out;
  if (p >= 3 && fits(*builtinPattern("all-to-all", p))) return out;
  if (p >= 3 && fits(*builtinPattern("master-worker", p))) return out;
  return out;
}

KnownPatternUse useOf(const Candidate& c, size_t index, const CommPattern& cp,
                      const std::vector<LocationPatterns>& locs) {
  KnownPatternUse u;
  u.pattern = c.pattern;
  u.parameters = c.parameters;
  u.commPatterns = {index};
  u.ranks = cp.ranks;
  u.occurrences = cp.frequency;
  u.eventsCovered = cp.eventsCovered;
  u.firstTime = cp.firstTime;
  u.lastTime = cp.lastTime;
  if (!cp.ranks.empty()) {
    u.positionsRank = cp.ranks.front();
    if (const ProcessPattern* m = mainMemberOf(cp, u.positionsRank, locs))
      u.positions = m->positions;
  }
  return u;
}

void absorb(KnownPatternUse& into, const KnownPatternUse& from) {
  into.commPatterns.insert(into.commPatterns.end(), from.commPatterns.begin(),
                           from.commPatterns.end());
  into.occurrences = std::max(into.occurrences, from.occurrences);
  into.eventsCovered += from.eventsCovered;
  into.firstTime = std::min(into.firstTime, from.firstTime);
  into.lastTime = std::max(into.lastTime, from.lastTime);
}

// Unclassified exchanges that all touch one hub rank, taken together.
void findMasterWorker(const std::vector<CommPattern>& cps, const std::vector<bool>& classified,
                      size_t p, const std::vector<LocationPatterns>& locs,
                      std::vector<KnownPatternUse>& out) {
  for (int64_t hub = 0; hub < int64_t(p); ++hub) {
    std::set<int64_t> toWorker, fromWorker;
    KnownPatternUse use;
    use.pattern = "master-worker";
    use.firstTime = ~Tick{0};
    for (size_t i = 0; i < cps.size(); ++i) {
      const CommPattern& cp = cps[i];
      if (classified[i] || cp.collectiveOnly) continue;
      const bool star = std::all_of(cp.edges.begin(), cp.edges.end(), [&](const auto& e) {
        return e.first == hub || e.second == hub;
      });
      if (!star) continue;
      for (const auto& [from, to] : cp.edges)
        (from == hub ? toWorker : fromWorker).insert(from == hub ? to : from);
      absorb(use, useOf({}, i, cp, locs));
      use.occurrences += cp.frequency;
    }
    std::vector<int64_t> workers;
    std::set_intersection(toWorker.begin(), toWorker.end(), fromWorker.begin(), fromWorker.end(),
                          std::back_inserter(workers));
    // Most of the other ranks must be workers: two ranks talking is not master/worker.
    if (workers.size() < 2 || workers.size() * 4 < (p - 1) * 3) continue;
    use.parameters = {{"master", std::to_string(hub)},
                      {"workers", std::to_string(workers.size())},
                      {"processes", std::to_string(p)}};
    use.ranks = workers;
    use.ranks.insert(use.ranks.begin(), hub);
    std::sort(use.ranks.begin(), use.ranks.end());
    use.positionsRank = hub;
    out.push_back(std::move(use));
    return;
  }
}

std::string keyOf(const KnownPatternUse& u) {
  std::string k = u.pattern;
  for (const auto& [name, value] : u.parameters) k += ";" + name + "=" + value;
  return k;
}

// A mesh on the grid of a wavefront is its boundary exchange.
void foldBoundaryExchanges(std::vector<KnownPatternUse>& uses) {
  std::set<std::string> wavefrontGrids;
  for (const auto& u : uses)
    if (u.pattern == "wavefront") wavefrontGrids.insert(u.parameters.at("grid"));
  std::vector<KnownPatternUse> kept;
  for (auto& u : uses) {
    if (u.pattern == "mesh" && wavefrontGrids.count(u.parameters.at("grid"))) {
      for (auto& w : uses)
        if (w.pattern == "wavefront" && w.parameters.at("grid") == u.parameters.at("grid"))
          w.parameters["boundary_exchange"] = "yes";
      continue;
    }
    kept.push_back(std::move(u));
  }
  uses = std::move(kept);
}

}  // namespace

std::vector<KnownPatternUse> classify(const std::vector<CommPattern>& cps,
                                      const std::vector<LocationPatterns>& locs,
                                      const SymbolTable& symbols, size_t p) {
  std::vector<KnownPatternUse> uses;
  std::map<std::string, size_t> byKey;
  std::vector<bool> classified(cps.size(), false);
  for (size_t i = 0; i < cps.size(); ++i) {
    if (cps[i].collectiveOnly || cps[i].frequency < 2) continue;
    for (const Candidate& c : fittingPatterns(cps[i], locs, symbols, p)) {
      classified[i] = true;
      KnownPatternUse u = useOf(c, i, cps[i], locs);
      const auto [it, inserted] = byKey.try_emplace(keyOf(u), uses.size());
      if (inserted)
        uses.push_back(std::move(u));
      else
        absorb(uses[it->second], u);
    }
  }
  findMasterWorker(cps, classified, p, locs, uses);
  foldBoundaryExchanges(uses);
  std::stable_sort(uses.begin(), uses.end(),
                   [](const auto& a, const auto& b) { return a.eventsCovered > b.eventsCovered; });
  return uses;
}

}  // namespace mtf::patterns
