#include "program/program_model.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>

#include "model/rank_ranges.hpp"

namespace mtf::program {

const char* typeName(ConstructType t) {
  switch (t) {
    case ConstructType::Loop:
      return "loop";
    case ConstructType::Collective:
      return "collective";
    default:
      return "event";
  }
}

bool isCollectiveKind(EventKind k) {
  return k == EventKind::MpiCollectiveEnd || k == EventKind::NonBlockingCollectiveComplete;
}

std::unordered_map<LocationId, uint64_t> processGroups(const Definitions& defs) {
  constexpr uint64_t kAccelerator = 2;  // OTF2_LOCATION_GROUP_TYPE_ACCELERATOR
  std::unordered_map<LocationId, uint64_t> out;
  for (const LocationView& l : defs.locations()) {
    uint64_t group = l.group;
    for (int hops = 0; hops < 16; ++hops) {  // a creator chain, never a cycle
      const DefRecord* g = defs.find(DefKind::LocationGroup, group);
      if (!g || g->fields.size() < 5 || g->fields[2] != kAccelerator ||
          g->fields[4] == kUndefinedRef || g->fields[4] == group)
        break;
      group = g->fields[4];
    }
    out.emplace(l.id, group);
  }
  return out;
}

size_t rankCount(const ProgramModel& model, const Definitions& defs) {
  const std::unordered_map<LocationId, uint64_t> groupOf = processGroups(defs);
  std::set<std::pair<bool, uint64_t>> processes;  // (grouped, group or location)
  for (const Process& p : model.processes) {
    const auto it = groupOf.find(p.location);
    processes.emplace(it != groupOf.end(), it != groupOf.end() ? it->second : p.location);
  }
  return processes.size();
}

std::string rankText(const ProgramModel& model, const ProcSet& procs) {
  std::vector<int64_t> ranks;
  std::string unranked;
  for (uint32_t p : procs) {
    const Process& process = model.processes.at(p);
    if (process.worldRank >= 0)
      ranks.push_back(process.worldRank);
    else
      unranked += (unranked.empty() ? "L" : ",L") + std::to_string(process.location);
  }
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string out = rankRanges(ranks);
  if (!unranked.empty()) out += (out.empty() ? "" : ",") + unranked;
  return out;
}

ProcSet unite(const ProcSet& a, const ProcSet& b) {
  ProcSet out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool intersects(const ProcSet& a, const ProcSet& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] == b[j]) return true;
    if (a[i] < b[j])
      ++i;
    else
      ++j;
  }
  return false;
}

uint64_t constructCount(const System& system) {
  uint64_t n = 0;
  for (const Construct& c : system) n += 1 + constructCount(c.body);
  return n;
}

uint64_t singleProcessCount(const System& system) {
  uint64_t n = 0;
  for (const Construct& c : system) n += (c.procs.size() == 1) + singleProcessCount(c.body);
  return n;
}

uint64_t times(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::numeric_limits<uint64_t>::max();
  return a * b;
}

}  // namespace mtf::program
