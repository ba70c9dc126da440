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
// Without a grid, the most nearly square X x Y = P with X <= Y is used.
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

// The built-in pattern "name" or "name:param" for `processes`; nullopt if the name is
// unknown; UsageError if its parameter does not fit.
std::optional<PatternSpec> builtinPattern(std::string_view nameAndParam, size_t processes);

// Variants used by classification.
PatternSpec meshPattern(Grid g, size_t processes, bool periodic);
PatternSpec wavefrontPattern(Grid g, size_t processes, int dx, int dy);
PatternSpec treePattern(size_t processes, bool reduce, bool binomial);
PatternSpec ringPattern(size_t processes, int direction);  // +1, -1, or 0 = both

PatternSpec parsePatternText(std::string_view text, size_t processes, const std::string& origin);
PatternSpec readPatternFile(const std::filesystem::path& path, size_t processes);

// sender -> receiver pairs named by the spec's sends and receives, sorted, unique.
std::vector<std::pair<int64_t, int64_t>> edgesOf(const PatternSpec& spec);

}  // namespace mtf::patterns
