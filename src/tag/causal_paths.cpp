#include "tag/causal_paths.hpp"

#include <algorithm>

namespace mtf::tag {

CausalPaths::CausalPaths(const CallPaths& paths, std::string from, std::string to, size_t maxSteps)
    : paths_(paths), from_(std::move(from)), to_(std::move(to)), maxSteps_(maxSteps) {}

uint8_t CausalPaths::roleOf(PathId path) {
  if (path >= roles_.size()) roles_.resize(paths_.size(), 0);
  uint8_t& role = roles_[path];
  if (!(role & kKnown)) {
    const std::string_view leaf = paths_.leaf(path);
    const std::string text = paths_.text(path);
    role = kKnown;
    if (leaf == from_ || text == from_) role |= kFrom;
    if (leaf == to_ || text == to_) role |= kTo;
  }
  return role;
}

void CausalPaths::activity(LocationId location, int64_t worldRank, PathId path, Tick start) {
  const uint8_t role = roleOf(path);
  if (!(role & (kFrom | kTo)) && open_.empty()) return;  // nothing to do yet
  Open& open = open_[location];
  if (open.active) {
    open.steps.push_back(path);
    if (role & kTo) {
      record(open, worldRank, start);
    } else if (open.steps.size() > maxSteps_) {
      ++tooLong_;
      open = Open{};
    }
  }
  if ((role & kFrom) && !open.active) {
    fromSeen_ = true;
    open.active = true;
    open.start = start;
    open.steps.assign(1, path);
  }
}

void CausalPaths::record(Open& open, int64_t worldRank, Tick end) {
  CausalPath& path = found_[open.steps];
  if (path.count == 0) path.steps = open.steps;
  ++path.count;
  path.totalTicks += end >= open.start ? end - open.start : 0;
  const auto at = std::lower_bound(path.ranks.begin(), path.ranks.end(), worldRank);
  if (worldRank >= 0 && (at == path.ranks.end() || *at != worldRank))
    path.ranks.insert(at, worldRank);
  open.active = false;
  open.steps.clear();
}

std::vector<CausalPath> CausalPaths::results() const {
  std::vector<CausalPath> out;
  for (const auto& [steps, path] : found_) out.push_back(path);
  std::stable_sort(out.begin(), out.end(),
                   [](const CausalPath& a, const CausalPath& b) { return a.count > b.count; });
  return out;
}

uint64_t CausalPaths::unfinished() const {
  uint64_t n = 0;
  for (const auto& [location, open] : open_) n += open.active ? 1 : 0;
  return n;
}

}  // namespace mtf::tag
