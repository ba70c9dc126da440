// Known communication patterns, as per-process symbol sequences (the paper's input
// pattern "decomposed into n process patterns L1..Ln"), either built in and
// parameterized by the number of processes, or read from a pattern file.
//
// Built-in names (":PARAM" optional; P = processes of the trace):
//   ring            rank r sends to r+1 and receives from r-1 (even ranks send first)
//   mesh[:XxY]      2D nearest-neighbour halo exchange on an X-by-Y grid (rank = y*X + x):
//                   receive from north, south, west, east, then send to them
//   wavefront[:XxY] sweep from rank 0: receive from north and west, send south and east
//   butterfly       recursive doubling: stage s exchanges with r XOR 2^s (P a power of 2)
//   tree-reduce     binary tree (children 2r+1, 2r+2): receive from children, send to parent
//   tree-bcast      binary tree: receive from parent, send to children
//   master-worker   rank 0 sends a task to every worker, then receives every result
//   all-to-all      step d = 1..P-1: send to r+d, receive from r-d (mod P)
//   pairwise        each rank exchanges with one partner, r XOR 1 (P even): ping-pong,
//                   Sendrecv pairs
//   mesh3d[:XxYxZ]  3D halo exchange on an X-by-Y-by-Z grid (rank = (z*Y + y)*X + x) with
//                   the 6 face neighbours; mesh3d-18 / mesh3d-26 add the edge (and corner)
//                   neighbours (19- and 27-point stencils, LULESH): sends to the faces,
//                   edges, corners in that order, then the receives
//   tree-allreduce  tree-reduce, then tree-bcast on the same tree (a hand-made allreduce)
//   gather          every rank sends to rank 0 (a flat fan-in); scatter: rank 0 to all
// Without a grid, the most nearly square X x Y = P with X <= Y is used (the most nearly
// cubic X x Y x Z for mesh3d).
//
// PATTERN FILE FORMAT (text, one statement per line, '#' starts a comment):
//   name NAME                 optional: the pattern's name
//   processes P               optional: the P the file is written for; relative partners
//                             and '*' need it, else the trace's number of processes is used;
//                             at most the trace's number (more ranks could never match)
//   rank LIST: EVENT...       the events of the listed ranks, in order
// LIST is '*' (every rank), a rank "3", a range "1-6", or a comma list of those ("0,2,4-7").
// EVENT is S<r> / R<r> (send to / receive from world rank r), S+<d> / S-<d> / R+<d> /
// R-<d> (partner relative to the rank, modulo P), or a collective: Barrier, Bcast@<root>,
// Allreduce, Reduce@<root>, Alltoall, ... (MPI_ prefix and case ignored). A later line
// for the same rank appends to its events. Example (a ring of any size):
//   name ring
//   rank *: S+1 R-1
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "patterns/symbols.hpp"

namespace mtf::patterns {

struct PatternSpec {
  std::string name;
  std::map<std::string, std::string> parameters;  // e.g. {"grid", "4x4"}
  std::vector<std::vector<CommSymbol>> perRank;   // index = world rank; empty = not involved
};

std::vector<std::string> builtinPatternNames();

struct Grid {
  size_t x = 0, y = 0;  // columns, rows
};
// Every X x Y = P with X, Y >= 2; the most nearly square first, then fewer columns.
std::vector<Grid> gridShapes(size_t processes);

struct Grid3 {
  size_t x = 0, y = 0, z = 0;  // x varies fastest in the rank
};
// Every X x Y x Z = P with X, Y, Z >= 2; the most nearly cubic first.
std::vector<Grid3> gridShapes3(size_t processes);
std::string gridText(Grid3 g);

// The built-in pattern "name" or "name:param" for `processes`; nullopt if the name is
// unknown; UsageError if its parameter does not fit.
std::optional<PatternSpec> builtinPattern(std::string_view nameAndParam, size_t processes);

// Variants used by classification.
PatternSpec meshPattern(Grid g, size_t processes, bool periodic);
PatternSpec wavefrontPattern(Grid g, size_t processes, int dx, int dy);
PatternSpec treePattern(size_t processes, bool reduce, bool binomial);
PatternSpec ringPattern(size_t processes, int direction);  // +1, -1, or 0 = both
// `neighbours` 6 (faces), 18 (faces and edges) or 26 (and corners); on a dimension of 2
// both sides are the same rank, so a rank has fewer distinct partners.
PatternSpec mesh3dPattern(Grid3 g, size_t processes, int neighbours, bool periodic);
// The partners of rank r in mesh3dPattern, in stencil order (faces, edges, corners).
std::vector<int64_t> stencilNeighbours(Grid3 g, int64_t r, int neighbours, bool periodic);
// Pairs (r, partner[r]) with partner[partner[r]] == r; `rule` names the pairing.
PatternSpec pairwisePattern(const std::vector<int64_t>& partner, const std::string& rule);
PatternSpec treeAllreducePattern(size_t processes, bool binomial);
PatternSpec fanPattern(size_t processes, int64_t root, bool gather);
// The class of the offset between two cells of g: 1 face, 2 edge, 3 corner neighbour,
// 0 same cell or not neighbours (periodic: offsets taken modulo the grid).
int stencilClass(Grid3 g, int64_t a, int64_t b, bool periodic);

PatternSpec parsePatternText(std::string_view text, size_t processes, const std::string& origin);
PatternSpec readPatternFile(const std::filesystem::path& path, size_t processes);

// sender -> receiver pairs named by the spec's sends and receives, sorted, unique.
std::vector<std::pair<int64_t, int64_t>> edgesOf(const PatternSpec& spec);

}  // namespace mtf::patterns
