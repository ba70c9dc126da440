// What `mtf convert` keeps of a trace, as its options give it (--ranks, --locations,
// --regions, --exclude-regions, --region-contents, --kinds, --exclude-kinds), and the same
// resolved against a trace's definitions. Applied while streaming by SelectionSink
// (selection_sink.hpp).
#pragma once

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "model/definitions.hpp"
#include "model/event.hpp"

namespace mtf::filter {

struct SelectionOptions {
  std::string ranks;                        // world ranks or location-group names; "" = every rank
  std::string locations;                    // location ids or names; "" = every location
  std::vector<std::string> regions;         // globs, each value may hold several (commas)
  std::vector<std::string> excludeRegions;  // globs
  // The region filters apply to what lies inside a call too: only events inside a kept
  // call stay (--regions), nothing inside a dropped call stays (--exclude-regions).
  bool regionContents = false;
  std::string kinds;         // event kinds as `mtf dump` names them; "" = every kind
  std::string excludeKinds;  // kinds to drop

  bool selectsLocations() const { return !ranks.empty() || !locations.empty(); }
  bool any() const {
    return selectsLocations() || !regions.empty() || !excludeRegions.empty() || !kinds.empty() ||
           !excludeKinds.empty();
  }
};

struct Selection {
  std::optional<std::unordered_set<LocationId>> locations;  // nullopt: every location
  std::vector<std::string> regions, excludeRegions;         // split globs
  bool regionContents = false;
  std::vector<bool> kinds = std::vector<bool>(kEventKindCount, true);  // kept kinds

  bool filtersEvents() const;  // anything beyond locations
  // The kept locations in definition order (for TraceSource::restrictToLocations).
  std::vector<LocationId> locationList(const Definitions& defs) const;
};

// Resolves `options` against the trace `input` (named in errors). Unknown ranks, location
// ids or names: InputError (exit 2), nothing is written. A bad kind name or pattern:
// UsageError listing what is known. A region pattern matching no region of the trace: a
// warning (a script may pass the same patterns to many traces).
Selection resolveSelection(const SelectionOptions& options, const Definitions& defs,
                           const std::string& input);

// The kinds a list names (Enter and Leave, and MpiCollectiveBegin and MpiCollectiveEnd,
// go together: naming one names both). UsageError on an unknown name, listing the known.
std::vector<EventKind> parseKinds(const std::string& list, const std::string& option);

}  // namespace mtf::filter
