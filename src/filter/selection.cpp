#include "filter/selection.hpp"

#include <algorithm>
#include <map>

#include "filter/id_list.hpp"
#include "model/mpi_ranks.hpp"
#include "model/rank_ranges.hpp"
#include "util/error.hpp"

namespace mtf::filter {
namespace {

// The other half of a kind that opens or closes a pair, or Count if it has none.
EventKind partnerOf(EventKind k) {
  switch (k) {
    case EventKind::Enter:
      return EventKind::Leave;
    case EventKind::Leave:
      return EventKind::Enter;
    case EventKind::MpiCollectiveBegin:
      return EventKind::MpiCollectiveEnd;
    case EventKind::MpiCollectiveEnd:
      return EventKind::MpiCollectiveBegin;
    default:
      return EventKind::Count;
  }
}

std::string knownKinds() {
  std::string known;
  for (size_t i = 0; i < kEventKindCount; ++i)
    known += (i ? ", " : "") + std::string(nameOf(static_cast<EventKind>(i)));
  return known;
}

// "a, b, c" (at most `limit` names, then "...").
std::string someNames(const std::vector<std::string>& names, size_t limit = 8) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  return names.size() > limit ? out + ", ..." : out;
}

std::string shortened(const std::string& text, size_t limit = 80) {
  return text.size() <= limit ? text : text.substr(0, text.rfind(',', limit)) + ",...";
}

// Locations of each world rank's process (its location group), by world rank.
std::vector<std::vector<LocationId>> locationsOfRanks(const Definitions& defs) {
  const RankMap ranks(defs);
  std::map<uint64_t, int64_t> rankOfGroup;
  for (const LocationView& l : defs.locations())
    if (const int64_t r = ranks.worldRank(l.id); r >= 0) rankOfGroup.emplace(l.group, r);
  std::vector<std::vector<LocationId>> out(ranks.worldSize());
  for (const LocationView& l : defs.locations()) {
    const auto it = rankOfGroup.find(l.group);
    if (it != rankOfGroup.end()) out[static_cast<size_t>(it->second)].push_back(l.id);
  }
  return out;
}

// The name of each world rank's process (its location group's name).
std::vector<std::string> rankNames(const Definitions& defs,
                                   const std::vector<std::vector<LocationId>>& byRank) {
  std::map<LocationId, uint64_t> groupOf;
  for (const LocationView& l : defs.locations()) groupOf[l.id] = l.group;
  std::vector<std::string> names;
  for (const auto& locations : byRank) {
    const DefRecord* g =
        locations.empty() ? nullptr : defs.find(DefKind::LocationGroup, groupOf[locations[0]]);
    names.emplace_back(g ? defs.string(g->field("name")) : "");
  }
  return names;
}

std::unordered_set<LocationId> selectRanks(const std::string& text, const Definitions& defs,
                                           const std::string& input) {
  const IdList list = parseIdList(text, "--ranks");
  const auto byRank = locationsOfRanks(defs);
  if (byRank.empty())
    throw InputError(input, "", "--ranks: the trace defines no MPI ranks (use --locations)");
  std::unordered_set<LocationId> kept;
  for (const auto& [first, last] : list.ranges) {
    if (last >= byRank.size())
      throw InputError(input, "",
                       "--ranks " + text + ": no rank " + std::to_string(last) +
                           " (the trace has ranks 0-" + std::to_string(byRank.size() - 1) + ")");
    for (uint64_t r = first; r <= last; ++r) kept.insert(byRank[r].begin(), byRank[r].end());
  }
  const std::vector<std::string> names = rankNames(defs, byRank);
  for (const std::string& name : list.names) {
    bool found = false;
    for (size_t r = 0; r < byRank.size(); ++r)
      if (names[r] == name) kept.insert(byRank[r].begin(), byRank[r].end()), found = true;
    if (!found)
      throw InputError(
          input, "",
          "--ranks: no rank is named '" + name + "' (ranks are named " + someNames(names) + ")");
  }
  return kept;
}

std::unordered_set<LocationId> selectLocations(const std::string& text, const Definitions& defs,
                                               const std::string& input) {
  const IdList list = parseIdList(text, "--locations");
  std::unordered_set<LocationId> kept;
  std::vector<std::string> names;
  std::vector<int64_t> ids;
  for (const LocationView& l : defs.locations()) {
    if (list.containsNumber(l.id) || list.containsName(l.name)) kept.insert(l.id);
    ids.push_back(static_cast<int64_t>(l.id));
    if (std::find(names.begin(), names.end(), l.name) == names.end()) names.emplace_back(l.name);
  }
  std::sort(ids.begin(), ids.end());
  for (const auto& range : list.ranges) {
    const auto first = range.first, last = range.second;  // lambdas cannot capture bindings
    if (std::none_of(kept.begin(), kept.end(),
                     [&](LocationId id) { return id >= first && id <= last; }))
      throw InputError(input, "",
                       "--locations: no location " + std::to_string(first) +
                           (last != first ? "-" + std::to_string(last) : "") +
                           " (the trace's locations are " + shortened(rankRanges(ids)) + ")");
  }
  for (const std::string& name : list.names)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw InputError(
          input, "",
          "--locations: no location is named '" + name + "' (names: " + someNames(names) + ")");
  return kept;
}

void warnUnmatched(const std::vector<std::string>& patterns, const Definitions& defs,
                   const std::string& option, const std::string& input) {
  for (const std::string& pattern : patterns) {
    bool matched = false;
    for (const DefRecord& r : defs.records())
      if (r.kind == DefKind::Region &&
          globMatch(pattern, defs.regionName(static_cast<Ref>(r.fields[0]))))
        matched = true;
    if (!matched) warn(input + ": " + option + " '" + pattern + "' matches no region");
  }
}

}  // namespace

bool Selection::filtersEvents() const {
  return !regions.empty() || !excludeRegions.empty() ||
         std::find(kinds.begin(), kinds.end(), false) != kinds.end();
}

std::vector<LocationId> Selection::locationList(const Definitions& defs) const {
  std::vector<LocationId> out;
  for (const LocationView& l : defs.locations())
    if (!locations || locations->count(l.id)) out.push_back(l.id);
  return out;
}

std::vector<EventKind> parseKinds(const std::string& list, const std::string& option) {
  const IdList items = parseIdList(list, option);
  if (!items.ranges.empty())
    throw UsageError(option + ": kinds are names (known: " + knownKinds() + ")");
  std::vector<EventKind> kinds;
  for (const std::string& name : items.names) {
    EventKind k;
    if (!eventKindFromName(name, k))
      throw UsageError(option + ": no event kind '" + name + "' (known: " + knownKinds() + ")");
    kinds.push_back(k);
    if (partnerOf(k) != EventKind::Count) kinds.push_back(partnerOf(k));
  }
  return kinds;
}

Selection resolveSelection(const SelectionOptions& o, const Definitions& defs,
                           const std::string& input) {
  Selection s;
  s.regions = splitPatterns(o.regions, "--regions");
  s.excludeRegions = splitPatterns(o.excludeRegions, "--exclude-regions");
  s.regionContents = o.regionContents;
  if (!o.kinds.empty()) {
    s.kinds.assign(kEventKindCount, false);
    for (EventKind k : parseKinds(o.kinds, "--kinds")) s.kinds[static_cast<size_t>(k)] = true;
  }
  if (!o.excludeKinds.empty())
    for (EventKind k : parseKinds(o.excludeKinds, "--exclude-kinds"))
      s.kinds[static_cast<size_t>(k)] = false;
  if (!o.ranks.empty()) s.locations = selectRanks(o.ranks, defs, input);
  if (!o.locations.empty()) {
    std::unordered_set<LocationId> named = selectLocations(o.locations, defs, input);
    if (s.locations) std::erase_if(named, [&](LocationId id) { return !s.locations->count(id); });
    s.locations = std::move(named);
  }
  if (s.locations && s.locations->empty())
    throw InputError(input, "", "--ranks and --locations together select no location");
  warnUnmatched(s.regions, defs, "--regions", input);
  warnUnmatched(s.excludeRegions, defs, "--exclude-regions", input);
  return s;
}

}  // namespace mtf::filter
