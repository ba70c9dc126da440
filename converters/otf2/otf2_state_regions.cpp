#include "converters/otf2/otf2_state_regions.hpp"

#include <otf2/otf2.h>

#include <algorithm>

#include "converters/otf2/otf2_common.hpp"

namespace mtf::otf2 {

namespace {

uint64_t nextFree(const Definitions& defs, DefKind kind) {
  uint64_t next = 0;
  for (const DefRecord& r : defs.records())
    if (r.kind == kind && !r.fields.empty() && r.fields[0] != kUndefinedRef)
      next = std::max(next, r.fields[0] + 1);
  return next;
}

}  // namespace

StateRegionPlan::StateRegionPlan(const Definitions& defs, uint64_t firstFreeString)
    : names_(defs.info),
      nextString_(firstFreeString),
      nextRegion_(static_cast<Ref>(nextFree(defs, DefKind::Region))) {
  views_ = defs.locations();
  for (size_t i = 0; i < views_.size(); ++i) {
    nextLocation_ = std::max(nextLocation_, views_[i].id + 1);
    viewOf_[views_[i].id] = i;
  }
}

Ref StateRegionPlan::string(std::string text) {
  const Ref id = static_cast<Ref>(nextString_++);
  strings_.push_back({DefKind::String, {id}, std::move(text)});
  return id;
}

StateRegionPlan::Track& StateRegionPlan::trackOf(LocationId owner) {
  const auto found = tracks_.find(owner);
  if (found != tracks_.end()) return found->second;
  const auto view = viewOf_.find(owner);
  const uint64_t group = view == viewOf_.end() ? kUndefinedId : views_[view->second].group;
  Track& track = tracks_[owner];
  track.location = nextLocation_++;
  order_.push_back(track.location);
  ownerAndGroup_[track.location] = {owner, group};
  return track;
}

Ref StateRegionPlan::regionOf(uint64_t state) {
  const auto found = regions_.find(state);
  if (found != regions_.end()) return found->second;
  const Ref id = nextRegion_++;
  const Ref name = string(names_.nameOf(state));
  const Ref description = string(std::string(kStateRegionPrefix) + std::to_string(state));
  regionRecords_.push_back({DefKind::Region,
                            {id, name, name, description, OTF2_REGION_ROLE_ARTIFICIAL,
                             OTF2_PARADIGM_USER, 0, kUndefinedRef, 0, 0},
                            {}});
  regions_[state] = id;
  return id;
}

std::vector<StateRegionPlan::Track*> StateRegionPlan::tracks() {
  std::vector<Track*> out;
  for (auto& [owner, track] : tracks_) out.push_back(&track);
  return out;
}

uint64_t StateRegionPlan::statesOf(LocationId owner) const {
  const auto found = tracks_.find(owner);
  return found == tracks_.end() ? 0 : found->second.states;
}

std::vector<DefRecord> StateRegionPlan::records(
    const std::unordered_map<LocationId, uint64_t>& eventCounts) const {
  std::vector<DefRecord> out = strings_;
  if (order_.empty()) return out;  // no State: nothing of the convention's
  uint64_t nextString = nextString_;
  const Ref property = static_cast<Ref>(nextString++);
  out.push_back({DefKind::String, {property}, std::string(kStatesOfProperty)});
  std::vector<DefRecord> locations, properties;
  for (const LocationId location : order_) {
    const auto [owner, group] = ownerAndGroup_.at(location);
    const auto view = viewOf_.find(owner);
    const std::string ownerName = view == viewOf_.end() ? "location " + std::to_string(owner)
                                                        : std::string(views_[view->second].name);
    const Ref name = static_cast<Ref>(nextString++);
    out.push_back({DefKind::String, {name}, ownerName + " states"});
    const auto count = eventCounts.find(location);
    locations.push_back({DefKind::Location,
                         {location, name, OTF2_LOCATION_TYPE_CPU_THREAD,
                          count == eventCounts.end() ? 0 : count->second, group},
                         {}});
    properties.push_back(
        {DefKind::LocationProperty, {location, property, OTF2_TYPE_UINT64, owner}, {}});
  }
  out.insert(out.end(), regionRecords_.begin(), regionRecords_.end());
  out.insert(out.end(), locations.begin(), locations.end());
  out.insert(out.end(), properties.begin(), properties.end());
  return out;
}

}  // namespace mtf::otf2
