// The lists the selection options take: "0-15,32" (numbers and ranges, or names) for
// --ranks and --locations, and glob patterns ("MPI_*", "solve?") for region names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mtf::filter {

// One comma-separated list: numbers ("7"), inclusive ranges ("0-15") and names (anything
// else, e.g. "MPI Rank 3" or "Master thread"), each trimmed of surrounding spaces.
struct IdList {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // [first, last]
  std::vector<std::string> names;

  bool empty() const { return ranges.empty() && names.empty(); }
  bool containsNumber(uint64_t n) const;
  bool containsName(std::string_view name) const;
};

// Parses `text` for the option `option` (named in errors); UsageError on an empty item
// or a range whose end precedes its start.
IdList parseIdList(std::string_view text, std::string_view option);

// Shell-style glob: '*' any run of characters, '?' any one character, '[abc]' / '[a-z]' /
// '[!a]' a class; everything else matches itself (case-sensitive, as region names are).
bool globMatch(std::string_view pattern, std::string_view text);

// Patterns from a repeatable option, each value split at commas: {"MPI_*,omp*", "main"}
// gives three patterns. UsageError on an empty pattern or an unclosed '['.
std::vector<std::string> splitPatterns(const std::vector<std::string>& values,
                                       std::string_view option);

// True if any of `patterns` matches `text`.
bool matchesAny(const std::vector<std::string>& patterns, std::string_view text);

}  // namespace mtf::filter
