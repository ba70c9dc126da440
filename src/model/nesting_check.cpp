#include "model/nesting_check.hpp"

#include <algorithm>

namespace mtf {

NestingCheck::LocationNesting& NestingCheck::stateOf(LocationId id) {
  constexpr LocationId kDenseIds = LocationId{1} << 16;
  if (id < denseIndex_.size() && denseIndex_[id] != 0)
    return *(last_ = &locations_[denseIndex_[id] - 1]);
  auto [it, added] = index_.try_emplace(id, locations_.size());
  if (id < kDenseIds) {
    if (denseIndex_.size() <= id) denseIndex_.resize(id + 1, 0);
    denseIndex_[id] = static_cast<uint32_t>(it->second + 1);
  }
  if (added) {
    locations_.emplace_back();
    locations_.back().id = id;
  }
  last_ = &locations_[it->second];
  return *last_;
}

void NestingCheck::addCounted(LocationId id, const NestingSummary& counts) {
  LocationNesting& s = stateOf(id);
  s.depth = counts.callsNeverLeft;
  s.counts.maxDepth = counts.maxDepth;
  s.counts.unmatchedLeaves = counts.unmatchedLeaves;
  s.counts.mismatchedLeaves = counts.mismatchedLeaves;
}

void NestingCheck::grow(LocationNesting& s) {
  s.regions.resize(std::min<size_t>(kTrackedDepth, std::max<size_t>(16, s.regions.size() * 2)));
}

void NestingCheck::leave(LocationNesting& s, uint64_t region) {
  if (s.depth == 0) {
    ++s.counts.unmatchedLeaves;
    return;
  }
  if (s.depth <= kTrackedDepth && s.regions[s.depth - 1] != region) ++s.counts.mismatchedLeaves;
  --s.depth;
}

void NestingCheck::end() {
  total_ = NestingSummary{};
  for (LocationNesting& s : locations_) {
    s.counts.callsNeverLeft = s.depth;
    total_.maxDepth = std::max(total_.maxDepth, s.counts.maxDepth);
    total_.callsNeverLeft += s.counts.callsNeverLeft;
    total_.unmatchedLeaves += s.counts.unmatchedLeaves;
    total_.mismatchedLeaves += s.counts.mismatchedLeaves;
    if (!s.counts.balanced()) ++total_.unbalancedLocations;
  }
}

std::vector<std::string> NestingCheck::describe(size_t limit, bool callsNeverLeft) const {
  std::vector<std::string> lines;
  for (const LocationNesting& s : locations_) {
    const uint64_t open = callsNeverLeft ? s.counts.callsNeverLeft : 0;
    if (open == 0 && s.counts.unmatchedLeaves == 0 && s.counts.mismatchedLeaves == 0) continue;
    if (lines.size() == limit) {
      lines.push_back("... and more locations");
      break;
    }
    std::string text = "location " + std::to_string(s.id) + ":";
    auto add = [&](uint64_t n, const char* what) {
      if (n) text += " " + std::to_string(n) + " " + what + ",";
    };
    add(open, "calls never left");
    add(s.counts.unmatchedLeaves, "leaves without an enter");
    add(s.counts.mismatchedLeaves, "leaves of another region than the open enter");
    text.pop_back();
    lines.push_back(text);
  }
  return lines;
}

}  // namespace mtf
