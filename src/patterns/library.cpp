#include "patterns/library.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "util/error.hpp"

namespace mtf::patterns {
namespace {

PatternSpec named(std::string name, size_t p) {
  PatternSpec s;
  s.name = std::move(name);
  s.perRank.resize(p);
  s.parameters["processes"] = std::to_string(p);
  return s;
}

std::string gridText(Grid g) {
  return std::to_string(g.x) + "x" + std::to_string(g.y);
}

Grid parseGrid(std::string_view text, size_t p) {
  const size_t x = text.find('x');
  Grid g;
  if (x == std::string_view::npos ||
      std::from_chars(text.data(), text.data() + x, g.x).ec != std::errc() ||
      std::from_chars(text.data() + x + 1, text.data() + text.size(), g.y).ec != std::errc())
    throw UsageError("grid '" + std::string(text) + "' is not XxY");
  if (g.x * g.y != p)
    throw UsageError("grid " + gridText(g) + " does not have " + std::to_string(p) + " processes");
  return g;
}

PatternSpec butterfly(size_t p) {
  if (p < 2 || (p & (p - 1)) != 0)
    throw UsageError("butterfly needs a power of two processes, not " + std::to_string(p));
  PatternSpec s = named("butterfly", p);
  size_t stages = 0;
  for (size_t bit = 1; bit < p; bit <<= 1) {
    ++stages;
    for (size_t r = 0; r < p; ++r) {
      s.perRank[r].push_back(sendTo(int64_t(r ^ bit)));
      s.perRank[r].push_back(recvFrom(int64_t(r ^ bit)));
    }
  }
  s.parameters["stages"] = std::to_string(stages);
  return s;
}

PatternSpec masterWorker(size_t p) {
  PatternSpec s = named("master-worker", p);
  s.parameters["master"] = "0";
  s.parameters["workers"] = std::to_string(p - 1);
  for (size_t w = 1; w < p; ++w) s.perRank[0].push_back(sendTo(int64_t(w)));
  for (size_t w = 1; w < p; ++w) s.perRank[0].push_back(recvFrom(int64_t(w)));
  for (size_t w = 1; w < p; ++w) s.perRank[w] = {recvFrom(0), sendTo(0)};
  return s;
}

PatternSpec allToAll(size_t p) {
  PatternSpec s = named("all-to-all", p);
  for (size_t r = 0; r < p; ++r)
    for (size_t d = 1; d < p; ++d) {
      s.perRank[r].push_back(sendTo(int64_t((r + d) % p)));
      s.perRank[r].push_back(recvFrom(int64_t((r + p - d) % p)));
    }
  return s;
}

Grid3 parseGrid3(std::string_view text, size_t p) {
  Grid3 g;
  const size_t a = text.find('x'), b = a == std::string_view::npos ? a : text.find('x', a + 1);
  const char* s = text.data();
  if (b == std::string_view::npos || std::from_chars(s, s + a, g.x).ec != std::errc() ||
      std::from_chars(s + a + 1, s + b, g.y).ec != std::errc() ||
      std::from_chars(s + b + 1, s + text.size(), g.z).ec != std::errc())
    throw UsageError("grid '" + std::string(text) + "' is not XxYxZ");
  if (g.x * g.y * g.z != p)
    throw UsageError("grid " + gridText(g) + " does not have " + std::to_string(p) + " processes");
  return g;
}

// Offset of b from a along one dimension of size n: -1, 0, 1, or 2 = not adjacent.
int64_t step(int64_t a, int64_t b, int64_t n, bool periodic) {
  int64_t d = b - a;
  if (periodic && d == n - 1) d = -1;
  if (periodic && d == 1 - n) d = 1;
  return d >= -1 && d <= 1 ? d : 2;
}

}  // namespace

std::vector<std::string> builtinPatternNames() {
  return {"ring",           "mesh",          "wavefront",  "butterfly", "tree-reduce",
          "tree-bcast",     "master-worker", "all-to-all", "pairwise",  "mesh3d",
          "tree-allreduce", "gather",        "scatter"};
}

std::string gridText(Grid3 g) {
  return std::to_string(g.x) + "x" + std::to_string(g.y) + "x" + std::to_string(g.z);
}

std::vector<Grid3> gridShapes3(size_t p) {
  std::vector<Grid3> out;
  for (size_t z = 2; z * 4 <= p; ++z)
    for (size_t y = 2; y * z * 2 <= p; ++y)
      if (p % (y * z) == 0) out.push_back({p / (y * z), y, z});
  auto spread = [](Grid3 g) { return std::max({g.x, g.y, g.z}) - std::min({g.x, g.y, g.z}); };
  std::stable_sort(out.begin(), out.end(), [&](Grid3 a, Grid3 b) { return spread(a) < spread(b); });
  return out;
}

int stencilClass(Grid3 g, int64_t a, int64_t b, bool periodic) {
  const int64_t X = int64_t(g.x), Y = int64_t(g.y), Z = int64_t(g.z);
  const int64_t d[] = {step(a % X, b % X, X, periodic), step(a / X % Y, b / X % Y, Y, periodic),
                       step(a / (X * Y), b / (X * Y), Z, periodic)};
  int cls = 0;
  for (int64_t v : d) {
    if (v == 2) return 0;
    cls += v != 0;
  }
  return cls;
}

// The partners of r on g in stencil order: faces, then edges, then corners.
std::vector<int64_t> stencilNeighbours(Grid3 g, int64_t r, int neighbours, bool periodic) {
  const int maxClass = neighbours >= 26 ? 3 : neighbours >= 18 ? 2 : 1;
  const int64_t X = int64_t(g.x), Y = int64_t(g.y), Z = int64_t(g.z);
  const int64_t x = r % X, y = r / X % Y, z = r / (X * Y);
  std::vector<int64_t> out;
  for (int cls = 1; cls <= maxClass; ++cls)
    for (int64_t dz = -1; dz <= 1; ++dz)
      for (int64_t dy = -1; dy <= 1; ++dy)
        for (int64_t dx = -1; dx <= 1; ++dx) {
          if ((dx != 0) + (dy != 0) + (dz != 0) != cls) continue;
          int64_t nx = x + dx, ny = y + dy, nz = z + dz;
          if (periodic) nx = (nx + X) % X, ny = (ny + Y) % Y, nz = (nz + Z) % Z;
          if (nx < 0 || ny < 0 || nz < 0 || nx >= X || ny >= Y || nz >= Z) continue;
          const int64_t n = (nz * Y + ny) * X + nx;
          if (n != r && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
        }
  return out;
}

PatternSpec mesh3dPattern(Grid3 g, size_t p, int neighbours, bool periodic) {
  PatternSpec s = named("mesh3d", p);
  s.parameters["grid"] = gridText(g);
  s.parameters["neighbours"] = std::to_string(neighbours);
  s.parameters["periodic"] = periodic ? "yes" : "no";
  for (int64_t r = 0; r < int64_t(p); ++r) {
    std::vector<int64_t> partners = stencilNeighbours(g, r, neighbours, periodic);
    for (int64_t n : partners) s.perRank[size_t(r)].push_back(sendTo(n));
    std::sort(partners.begin(), partners.end());
    for (int64_t n : partners) s.perRank[size_t(r)].push_back(recvFrom(n));
  }
  return s;
}

PatternSpec pairwisePattern(const std::vector<int64_t>& partner, const std::string& rule) {
  PatternSpec s = named("pairwise", partner.size());
  s.parameters["pairs"] = std::to_string(partner.size() / 2);
  s.parameters["pairing"] = rule;
  for (size_t r = 0; r < partner.size(); ++r) {
    if (partner[r] < 0) continue;
    // The lower rank of a pair sends first (a ping-pong); a Sendrecv has the same pairs.
    if (int64_t(r) < partner[r])
      s.perRank[r] = {sendTo(partner[r]), recvFrom(partner[r])};
    else
      s.perRank[r] = {recvFrom(partner[r]), sendTo(partner[r])};
  }
  return s;
}

PatternSpec treeAllreducePattern(size_t p, bool binomial) {
  PatternSpec s = treePattern(p, true, binomial);
  const PatternSpec down = treePattern(p, false, binomial);
  s.name = "tree-allreduce";
  for (size_t r = 0; r < p; ++r)
    s.perRank[r].insert(s.perRank[r].end(), down.perRank[r].begin(), down.perRank[r].end());
  return s;
}

PatternSpec fanPattern(size_t p, int64_t root, bool gather) {
  PatternSpec s = named(gather ? "gather" : "scatter", p);
  s.parameters["root"] = std::to_string(root);
  for (int64_t r = 0; r < int64_t(p); ++r) {
    if (r == root) continue;
    s.perRank[size_t(r)].push_back(gather ? sendTo(root) : recvFrom(root));
    s.perRank[size_t(root)].push_back(gather ? recvFrom(r) : sendTo(r));
  }
  return s;
}

std::vector<Grid> gridShapes(size_t p) {
  std::vector<Grid> out;
  for (size_t y = 2; y * 2 <= p; ++y)
    if (p % y == 0) out.push_back({p / y, y});
  std::sort(out.begin(), out.end(), [](Grid a, Grid b) {
    const auto ga = a.x > a.y ? a.x - a.y : a.y - a.x, gb = b.x > b.y ? b.x - b.y : b.y - b.x;
    return ga != gb ? ga < gb : a.x < b.x;  // fewer columns first, as mtf-gen lays ranks out
  });
  return out;
}

PatternSpec ringPattern(size_t p, int direction) {
  PatternSpec s = named("ring", p);
  s.parameters["direction"] = direction > 0 ? "forward" : direction < 0 ? "backward" : "both";
  for (size_t r = 0; r < p; ++r) {
    const int64_t next = int64_t((r + 1) % p), prev = int64_t((r + p - 1) % p);
    auto& seq = s.perRank[r];
    if (direction >= 0) {  // even ranks send first, odd ranks receive first
      if (r % 2 == 0)
        seq = {sendTo(next), recvFrom(prev)};
      else
        seq = {recvFrom(prev), sendTo(next)};
    }
    if (direction <= 0) {
      if (r % 2 == 0)
        seq.insert(seq.end(), {sendTo(prev), recvFrom(next)});
      else
        seq.insert(seq.end(), {recvFrom(next), sendTo(prev)});
    }
  }
  return s;
}

PatternSpec meshPattern(Grid g, size_t p, bool periodic) {
  PatternSpec s = named("mesh", p);
  s.parameters["grid"] = gridText(g);
  s.parameters["periodic"] = periodic ? "yes" : "no";
  const int64_t X = int64_t(g.x), Y = int64_t(g.y);
  for (int64_t r = 0; r < X * Y; ++r) {
    const int64_t x = r % X, y = r / X;
    std::vector<int64_t> neighbours;
    // Sends posted west, east, north, south; the receives complete together (a Waitall),
    // listed in partner order as the detector reads them (collapse.hpp CompletionSorter).
    const int64_t dxs[] = {-1, 1, 0, 0}, dys[] = {0, 0, -1, 1};
    for (int i = 0; i < 4; ++i) {
      int64_t nx = x + dxs[i], ny = y + dys[i];
      if (periodic) nx = (nx + X) % X, ny = (ny + Y) % Y;
      if (nx < 0 || ny < 0 || nx >= X || ny >= Y) continue;
      const int64_t n = ny * X + nx;
      if (n != r && std::find(neighbours.begin(), neighbours.end(), n) == neighbours.end())
        neighbours.push_back(n);
    }
    for (int64_t n : neighbours) s.perRank[r].push_back(sendTo(n));
    std::sort(neighbours.begin(), neighbours.end());
    for (int64_t n : neighbours) s.perRank[r].push_back(recvFrom(n));
  }
  return s;
}

PatternSpec wavefrontPattern(Grid g, size_t p, int dx, int dy) {
  PatternSpec s = named("wavefront", p);
  s.parameters["grid"] = gridText(g);
  const int64_t X = int64_t(g.x), Y = int64_t(g.y);
  const int64_t ox = dx > 0 ? 0 : X - 1, oy = dy > 0 ? 0 : Y - 1;
  s.parameters["origin"] = std::to_string(oy * X + ox);
  for (int64_t r = 0; r < X * Y; ++r) {
    const int64_t x = r % X, y = r / X;
    auto inside = [&](int64_t nx, int64_t ny) { return nx >= 0 && ny >= 0 && nx < X && ny < Y; };
    if (inside(x, y - dy)) s.perRank[r].push_back(recvFrom((y - dy) * X + x));
    if (inside(x - dx, y)) s.perRank[r].push_back(recvFrom(y * X + x - dx));
    if (inside(x, y + dy)) s.perRank[r].push_back(sendTo((y + dy) * X + x));
    if (inside(x + dx, y)) s.perRank[r].push_back(sendTo(y * X + x + dx));
  }
  return s;
}

PatternSpec treePattern(size_t p, bool reduce, bool binomial) {
  PatternSpec s = named(reduce ? "tree-reduce" : "tree-bcast", p);
  s.parameters["shape"] = binomial ? "binomial" : "binary";
  s.parameters["root"] = "0";
  auto parentOf = [&](size_t r) { return binomial ? (r & (r - 1)) : (r - 1) / 2; };
  std::vector<std::vector<int64_t>> children(p);
  for (size_t r = 1; r < p; ++r) children[parentOf(r)].push_back(int64_t(r));
  size_t depth = 0;
  for (size_t r = 1; r < p; ++r) {
    size_t d = 0;
    for (size_t a = r; a != 0; a = parentOf(a)) ++d;
    depth = std::max(depth, d);
  }
  s.parameters["depth"] = std::to_string(depth);
  for (size_t r = 0; r < p; ++r) {
    auto& seq = s.perRank[r];
    if (!reduce && r != 0) seq.push_back(recvFrom(int64_t(parentOf(r))));
    for (int64_t c : children[r]) seq.push_back(reduce ? recvFrom(c) : sendTo(c));
    if (reduce && r != 0) seq.push_back(sendTo(int64_t(parentOf(r))));
  }
  return s;
}

std::optional<PatternSpec> builtinPattern(std::string_view nameAndParam, size_t p) {
  const size_t colon = nameAndParam.find(':');
  const std::string_view name = nameAndParam.substr(0, colon);
  const std::string_view param =
      colon == std::string_view::npos ? std::string_view{} : nameAndParam.substr(colon + 1);
  if (p < 2) throw UsageError("a communication pattern needs at least 2 processes");
  auto grid = [&]() {
    if (!param.empty()) return parseGrid(param, p);
    const auto shapes = gridShapes(p);
    if (shapes.empty()) throw UsageError(std::to_string(p) + " processes make no 2D grid");
    return shapes.front();
  };
  if (name == "ring") return ringPattern(p, 1);
  if (name == "mesh" || name == "halo") return meshPattern(grid(), p, false);
  if (name == "wavefront") return wavefrontPattern(grid(), p, 1, 1);
  if (name == "butterfly") return butterfly(p);
  if (name == "tree-reduce") return treePattern(p, true, false);
  if (name == "tree-bcast") return treePattern(p, false, false);
  if (name == "master-worker") return masterWorker(p);
  if (name == "all-to-all") return allToAll(p);
  if (name == "pairwise") {
    if (p % 2)
      throw UsageError("pairwise needs an even number of processes, not " + std::to_string(p));
    std::vector<int64_t> partner(p);
    for (size_t r = 0; r < p; ++r) partner[r] = int64_t(r ^ 1);
    return pairwisePattern(partner, "r xor 1");
  }
  if (name == "mesh3d" || name == "halo3d" || name == "mesh3d-18" || name == "mesh3d-26") {
    const int neighbours = name == "mesh3d-18" ? 18 : name == "mesh3d-26" ? 26 : 6;
    if (!param.empty()) return mesh3dPattern(parseGrid3(param, p), p, neighbours, false);
    const auto shapes = gridShapes3(p);
    if (shapes.empty()) throw UsageError(std::to_string(p) + " processes make no 3D grid");
    return mesh3dPattern(shapes.front(), p, neighbours, false);
  }
  if (name == "tree-allreduce") return treeAllreducePattern(p, false);
  if (name == "gather" || name == "scatter") return fanPattern(p, 0, name == "gather");
  return std::nullopt;
}

std::vector<std::pair<int64_t, int64_t>> edgesOf(const PatternSpec& spec) {
  std::vector<std::pair<int64_t, int64_t>> edges;
  // Each rank's edges are kept once as they are met (a pattern of 2^20 events repeating
  // a few exchanges would otherwise sort 2^20 copies): seen[kind][partner] holds the last
  // rank + 1 that had that edge.
  const size_t processes = spec.perRank.size();
  std::vector<size_t> seen[2] = {std::vector<size_t>(processes), std::vector<size_t>(processes)};
  for (size_t r = 0; r < processes; ++r)
    for (const CommSymbol& s : spec.perRank[r]) {
      if (!s.isPointToPoint()) continue;
      const bool send = s.kind == SymbolKind::Send;
      if (s.partner >= 0 && size_t(s.partner) < processes) {
        size_t& mark = seen[send ? 1 : 0][size_t(s.partner)];
        if (mark == r + 1) continue;
        mark = r + 1;
      }
      edges.push_back(send ? std::make_pair(int64_t(r), s.partner)
                           : std::make_pair(s.partner, int64_t(r)));
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace mtf::patterns
