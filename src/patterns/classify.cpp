#include "patterns/classify.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "patterns/groups.hpp"

namespace mtf::patterns {
namespace {

using Edges = std::vector<std::pair<int64_t, int64_t>>;

struct Candidate {
  std::string pattern;
  std::map<std::string, std::string> parameters;
};

// A communication pattern seen on its group: edges and partners in local numbering.
struct LocalView {
  const CommPattern& cp;
  const std::vector<LocationPatterns>& locs;
  const SymbolTable& symbols;
  const RankGroup& group;
  Edges edges;
  size_t n() const { return group.ranks.size(); }

  // Local partners of local rank i's main member in order (sends only if asked);
  // partners outside the group are -1.
  std::vector<int64_t> partners(size_t i, bool sendsOnly) const {
    std::vector<int64_t> out;
    const ProcessPattern* main = mainMemberOf(cp, group.ranks[i], locs);
    if (!main) return out;
    for (SymbolId id : main->symbols) {
      const CommSymbol& s = symbols.symbol(id);
      if (!s.isPointToPoint() || (sendsOnly && s.kind != SymbolKind::Send)) continue;
      out.push_back(group.localOf(s.partner));
    }
    return out;
  }
};

bool butterflyOrder(const LocalView& v) {
  for (size_t r = 0; r < v.n(); ++r) {
    std::vector<int64_t> up, got = v.partners(r, false);
    got.erase(std::unique(got.begin(), got.end()), got.end());  // one stage: S and R
    for (size_t bit = 1; bit < v.n(); bit <<= 1) up.push_back(int64_t(r ^ bit));
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

// A stencil code posts its sends faces first, then edges, then corners; read cyclically,
// the class of the partner falls (corner -> face) about once per exchange. A complete
// exchange in any other order (an all-to-all) falls far more often. Needed only where a
// stencil links every pair of ranks (26 neighbours on 2x2x2), as an all-to-all does.
bool stencilOrder(const LocalView& v, Grid3 g, bool periodic) {
  for (size_t r = 0; r < v.n(); ++r) {
    const std::vector<int64_t> sends = v.partners(r, true);
    if (sends.empty()) return false;
    size_t falls = 0;
    for (size_t k = 0; k < sends.size(); ++k) {
      const int64_t a = sends[k], b = sends[(k + 1) % sends.size()];
      if (a < 0 || b < 0) return false;
      falls += stencilClass(g, int64_t(r), b, periodic) < stencilClass(g, int64_t(r), a, periodic);
    }
    if (falls * 4 > sends.size()) return false;
  }
  return true;
}

// How the ranks 0..n-1 of `partner` are paired.
std::string pairingRule(const std::vector<int64_t>& partner) {
  const size_t n = partner.size();
  auto all = [&](auto rule) {
    for (size_t r = 0; r < n; ++r)
      if (partner[r] != int64_t(rule(r))) return false;
    return true;
  };
  return all([](size_t r) { return r ^ 1; })              ? "r xor 1"
         : all([&](size_t r) { return (r + n / 2) % n; }) ? "r+P/2"
         : all([&](size_t r) { return n - 1 - r; })       ? "P-1-r"
                                                          : "explicit";
}

// Each rank exchanges with exactly one partner, both ways.
std::optional<PatternSpec> pairwiseFit(const LocalView& v) {
  const size_t n = v.n();
  if (n % 2 || v.edges.size() != n) return std::nullopt;
  std::vector<int64_t> partner(n, -1);
  for (const auto& [from, to] : v.edges) {
    if (partner[size_t(from)] >= 0 || from == to) return std::nullopt;
    partner[size_t(from)] = to;
  }
  for (size_t r = 0; r < n; ++r)
    if (partner[size_t(partner[r])] != int64_t(r)) return std::nullopt;
  return pairwisePattern(partner, pairingRule(partner));
}

// The candidates whose edges are cp's, in order of preference; every fitting one of
// the first family that fits.
std::vector<Candidate> fittingPatterns(const LocalView& v) {
  std::vector<Candidate> out;
  const size_t p = v.n();
  auto fits = [&](const PatternSpec& spec) {
    if (edgesOf(spec) == v.edges) out.push_back({spec.name, spec.parameters});
    return !out.empty();
  };
  if (p < 2) return out;
  if (const auto pairs = pairwiseFit(v); pairs && fits(*pairs)) return out;
  if (p >= 4 && (p & (p - 1)) == 0 && butterflyOrder(v) && fits(*builtinPattern("butterfly", p)))
    return out;
  if (p >= 3 && (fits(ringPattern(p, 1)) || fits(ringPattern(p, -1)) || fits(ringPattern(p, 0))))
    return out;
  for (Grid g : gridShapes(p)) {
    for (int dx : {1, -1})
      for (int dy : {1, -1})
        if (fits(wavefrontPattern(g, p, dx, dy))) return out;
    if (fits(meshPattern(g, p, false)) || fits(meshPattern(g, p, true))) return out;
  }
  const size_t complete = p * (p - 1);
  // Rank 0's partners first: a shape that cannot fit is not built.
  const size_t partnersOfZero = size_t(
      std::count_if(v.edges.begin(), v.edges.end(), [](const auto& e) { return e.first == 0; }));
  for (Grid3 g : gridShapes3(p))
    for (int neighbours : {6, 18, 26})
      for (bool periodic : {false, true}) {
        if (stencilNeighbours(g, 0, neighbours, periodic).size() != partnersOfZero) continue;
        const PatternSpec spec = mesh3dPattern(g, p, neighbours, periodic);
        if (v.edges.size() == complete && !stencilOrder(v, g, periodic)) continue;
        if (fits(spec)) return out;
      }
  for (bool binomial : {false, true})
    for (bool reduce : {true, false})
      if (p >= 3 && fits(treePattern(p, reduce, binomial))) return out;
  for (bool binomial : {false, true})
    if (p >= 3 && fits(treeAllreducePattern(p, binomial))) return out;
  if (p >= 3 && fits(*builtinPattern("all-to-all", p))) return out;
  if (p >= 3 && fits(*builtinPattern("master-worker", p))) return out;
  for (bool gather : {true, false})
    if (p >= 3 && fits(fanPattern(p, 0, gather))) return out;
  return out;
}

KnownPatternUse useOf(const Candidate& c, size_t index, const CommPattern& cp,
                      const std::vector<LocationPatterns>& locs) {
  KnownPatternUse u;
  u.pattern = c.pattern;
  u.parameters = c.parameters;
  u.commPatterns = {index};
  u.ranks = rankSetOf(cp);
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
                      const std::vector<int64_t>& active, const std::vector<LocationPatterns>& locs,
                      std::vector<KnownPatternUse>& out) {
  const size_t p = active.size();
  for (int64_t hub : active) {
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

// Rank parameters of a candidate found on a group are local: name world ranks.
void toWorldRanks(Candidate& c, const RankGroup& g, size_t worldSize) {
  for (const char* key : {"origin", "master", "root"}) {
    const auto it = c.parameters.find(key);
    if (it != c.parameters.end()) it->second = std::to_string(g.ranks[std::stoul(it->second)]);
  }
  if (g.ranks.size() < worldSize) c.parameters["group"] = ranksText(g.ranks);
}

// The collective operations inside a pattern (a Jacobi's Allreduce beside its exchange).
std::string collectivesOf(const CommPattern& cp, const std::vector<LocationPatterns>& locs,
                          const SymbolTable& symbols) {
  std::vector<std::string> names;
  if (cp.ranks.empty()) return {};
  if (const ProcessPattern* main = mainMemberOf(cp, cp.ranks.front(), locs))
    for (SymbolId id : main->symbols)
      if (!symbols.symbol(id).isPointToPoint() &&
          std::find(names.begin(), names.end(), symbols.name(id)) == names.end())
        names.push_back(symbols.name(id));
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

void addNames(std::string& list, const std::string& more) {
  size_t start = 0;
  while (start < more.size()) {
    const size_t comma = std::min(more.find(',', start), more.size());
    const std::string name = more.substr(start, comma - start);
    if (("," + list + ",").find("," + name + ",") == std::string::npos)
      list += (list.empty() ? "" : ",") + name;
    start = comma + 1;
  }
}

// Pairs found one by one (each pair is its own communication pattern, and one pair may
// repeat several exchanges) are one pairwise exchange over all their ranks.
void joinPairs(std::vector<KnownPatternUse>& uses, size_t worldSize) {
  std::vector<KnownPatternUse> kept;
  std::map<int64_t, int64_t> partner;
  std::string collectives;
  std::optional<size_t> joined;
  for (auto& u : uses) {
    if (u.pattern != "pairwise" || u.ranks.size() != 2) {
      kept.push_back(std::move(u));
      continue;
    }
    partner[u.ranks[0]] = u.ranks[1];
    partner[u.ranks[1]] = u.ranks[0];
    if (u.parameters.count("collectives")) addNames(collectives, u.parameters.at("collectives"));
    if (!joined) {
      joined = kept.size();
      kept.push_back(std::move(u));
      continue;
    }
    absorb(kept[*joined], u);
  }
  if (joined) {
    KnownPatternUse& j = kept[*joined];
    j.ranks.clear();
    for (const auto& [r, q] : partner) j.ranks.push_back(r);
    RankGroup g{j.ranks};
    std::vector<int64_t> local;
    for (const auto& [r, q] : partner) local.push_back(g.localOf(q));
    j.parameters["pairs"] = std::to_string(j.ranks.size() / 2);
    j.parameters["processes"] = std::to_string(j.ranks.size());
    j.parameters["pairing"] = pairingRule(local);
    j.parameters.erase("group");
    if (j.ranks.size() < worldSize) j.parameters["group"] = ranksText(j.ranks);
    j.parameters.erase("collectives");
    if (!collectives.empty()) j.parameters["collectives"] = collectives;
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
  const GroupIndex groups = groupIndex(cps);
  for (size_t i = 0; i < cps.size(); ++i) {
    if (!classifiable(cps[i])) continue;
    // Known patterns span a whole group (a rank may only appear as a partner: its own
    // part repeats in another pattern).
    const RankGroup* g = groups.groupOf(cps[i].ranks.front());
    if (!g || rankSetOf(cps[i]) != g->ranks) continue;
    LocalView view{cps[i], locs, symbols, *g, {}};
    if (!localEdges(cps[i], *g, view.edges)) continue;
    for (Candidate& c : fittingPatterns(view)) {
      classified[i] = true;
      toWorldRanks(c, *g, p);
      if (const std::string coll = collectivesOf(cps[i], locs, symbols); !coll.empty())
        c.parameters["collectives"] = coll;
      KnownPatternUse u = useOf(c, i, cps[i], locs);
      const auto [it, inserted] = byKey.try_emplace(keyOf(u), uses.size());
      if (inserted)
        uses.push_back(std::move(u));
      else
        absorb(uses[it->second], u);
    }
  }
  joinPairs(uses, p);
  findMasterWorker(cps, classified, groups.active, locs, uses);
  foldBoundaryExchanges(uses);
  std::stable_sort(uses.begin(), uses.end(),
                   [](const auto& a, const auto& b) { return a.eventsCovered > b.eventsCovered; });
  return uses;
}

}  // namespace mtf::patterns
