#include "tag/call_paths.hpp"

#include <algorithm>

namespace mtf::tag {

CallPaths::CallPaths() {
  labels_.emplace_back();
  entries_.push_back({kRoot, 0});
}

LabelId CallPaths::label(std::string_view text) {
  const auto [it, inserted] =
      labelIds_.try_emplace(std::string(text), static_cast<LabelId>(labels_.size()));
  if (inserted) labels_.emplace_back(text);
  return it->second;
}

PathId CallPaths::child(PathId parent, LabelId label) {
  const uint64_t key = (uint64_t{parent} << 32) | label;
  if (const PathId* path = recent_.find(key)) return *path;
  const auto [it, inserted] = children_.try_emplace(key, static_cast<PathId>(entries_.size()));
  if (inserted) entries_.push_back({parent, label});
  recent_.put(key, it->second);
  return it->second;
}

std::string CallPaths::text(PathId path) const {
  std::vector<PathId> chain;
  for (PathId p = path; p != kRoot; p = entries_[p].parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (!out.empty()) out += '/';
    out += labels_[entries_[*it].label];
  }
  return out;
}

}  // namespace mtf::tag
