// Call paths (seed 004, section 2.1: "main/f1/foo/MPI_Isend") as a trie of interned labels:
// a path is a small integer, its parent and its last label; entering a region is one hash
// lookup. Memory is the number of distinct paths, not the number of calls.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tag/recent.hpp"

namespace mtf::tag {

using PathId = uint32_t;
using LabelId = uint32_t;

class CallPaths {
 public:
  static constexpr PathId kRoot = 0;  // the empty path (no label)

  CallPaths();
  LabelId label(std::string_view text);
  PathId child(PathId parent, LabelId label);
  PathId parent(PathId path) const { return entries_[path].parent; }
  std::string_view leaf(PathId path) const { return labels_[entries_[path].label]; }
  // The labels from the outermost to `path`, joined by '/'.
  std::string text(PathId path) const;
  size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    PathId parent;
    LabelId label;
  };
  std::vector<std::string> labels_;
  std::unordered_map<std::string, LabelId> labelIds_;
  std::vector<Entry> entries_;
  std::unordered_map<uint64_t, PathId> children_;  // (parent << 32 | label) -> path
  Recent<uint64_t, PathId> recent_;
};

}  // namespace mtf::tag
