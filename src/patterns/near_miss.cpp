#include "patterns/near_miss.hpp"

#include <algorithm>
#include <iterator>
#include <set>

#include "patterns/groups.hpp"
#include "patterns/library.hpp"

namespace mtf::patterns {
namespace {

using Edges = std::vector<std::pair<int64_t, int64_t>>;

// Every built-in pattern on n ranks with its variants (a few grid shapes each).
std::vector<PatternSpec> candidates(size_t n) {
  std::vector<PatternSpec> out;
  if (n % 2 == 0) out.push_back(*builtinPattern("pairwise", n));
  if (n < 3) return out;
  for (int direction : {1, -1, 0}) out.push_back(ringPattern(n, direction));
  const auto shapes = gridShapes(n);
  for (size_t i = 0; i < shapes.size() && i < 4; ++i) {
    for (bool periodic : {false, true}) out.push_back(meshPattern(shapes[i], n, periodic));
    for (int d : {1, -1}) out.push_back(wavefrontPattern(shapes[i], n, d, d));
  }
  const auto shapes3 = gridShapes3(n);
  for (size_t i = 0; i < shapes3.size() && i < 4; ++i)
    for (int neighbours : {6, 18, 26})
      for (bool periodic : {false, true})
        out.push_back(mesh3dPattern(shapes3[i], n, neighbours, periodic));
  for (bool binomial : {false, true}) {
    for (bool reduce : {true, false}) out.push_back(treePattern(n, reduce, binomial));
    out.push_back(treeAllreducePattern(n, binomial));
  }
  for (const char* name : {"all-to-all", "master-worker", "gather", "scatter"})
    out.push_back(*builtinPattern(name, n));
  if ((n & (n - 1)) == 0) out.push_back(*builtinPattern("butterfly", n));
  return out;
}

Edges minus(const Edges& a, const Edges& b) {
  Edges out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

std::string edgesText(const Edges& edges) {
  std::string out;
  for (size_t i = 0; i < edges.size() && i < 6; ++i)
    out +=
        (i ? ", " : "") + std::to_string(edges[i].first) + "->" + std::to_string(edges[i].second);
  return out + (edges.size() > 6 ? ", ..." : "");
}

std::string describe(const NearMiss& m) {
  std::string t = "close to " + m.pattern;
  for (const auto& [k, v] : m.parameters) t += " " + k + "=" + v;
  t += " (communication pattern #" + std::to_string(m.commPattern) + "): ";
  if (!m.missing.empty())
    t += std::to_string(m.ranksMissingPartner.size()) + " of " + std::to_string(m.ranks.size()) +
         " ranks miss a partner (" + edgesText(m.missing) + ")";
  if (!m.missing.empty() && !m.extra.empty()) t += "; ";
  if (!m.extra.empty())
    t += std::to_string(m.extra.size()) + " message pair" + (m.extra.size() > 1 ? "s" : "") +
         " not in it (" + edgesText(m.extra) + ")";
  return t;
}

}  // namespace

bool closestKnown(const Edges& edges, size_t n, NearMiss& into) {
  size_t best = ~size_t{0};
  for (const PatternSpec& spec : candidates(n)) {
    const Edges expected = edgesOf(spec);
    Edges missing = minus(expected, edges), extra = minus(edges, expected);
    const size_t differ = missing.size() + extra.size();
    if (differ == 0 || differ >= best || differ > std::max<size_t>(1, expected.size() / 4))
      continue;
    best = differ;
    into.pattern = spec.name;
    into.parameters = spec.parameters;
    into.missing = std::move(missing);
    into.extra = std::move(extra);
  }
  return best != ~size_t{0};
}

std::vector<NearMiss> nearMisses(const std::vector<CommPattern>& cps,
                                 const std::vector<KnownPatternUse>& known, size_t worldSize,
                                 size_t maxReported) {
  std::set<int64_t> covered;
  for (const auto& u : known) covered.insert(u.ranks.begin(), u.ranks.end());
  const GroupIndex groups = groupIndex(cps);
  std::vector<NearMiss> out;
  for (size_t i = 0; i < cps.size() && out.size() < maxReported; ++i) {
    const CommPattern& cp = cps[i];
    if (!classifiable(cp) || cp.ranks.empty()) continue;
    if (std::any_of(cp.ranks.begin(), cp.ranks.end(), [&](int64_t r) { return covered.count(r); }))
      continue;
    const RankGroup* g = groups.groupOf(cp.ranks.front());
    Edges local;
    NearMiss m;
    if (!g || !localEdges(cp, *g, local) || !closestKnown(local, g->ranks.size(), m)) continue;
    m.commPattern = i;
    m.ranks = g->ranks;
    std::set<int64_t> lacking;
    for (auto* list : {&m.missing, &m.extra})
      for (auto& [from, to] : *list) {
        from = g->ranks[size_t(from)], to = g->ranks[size_t(to)];
        if (list == &m.missing) lacking.insert({from, to});
      }
    m.ranksMissingPartner.assign(lacking.begin(), lacking.end());
    for (const char* key : {"origin", "master", "root"})
      if (auto it = m.parameters.find(key); it != m.parameters.end())
        it->second = std::to_string(g->ranks[std::stoul(it->second)]);
    if (g->ranks.size() < worldSize) m.parameters["group"] = ranksText(g->ranks);
    m.text = describe(m);
    covered.insert(cp.ranks.begin(), cp.ranks.end());  // one explanation per group
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace mtf::patterns
