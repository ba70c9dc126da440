// States as regions on locations of their own (the convention: otf2_convention.hpp), the
// writer's side: the states locations and state regions it defines as States arrive,
// and each states location's pending Leaves (a stack, as deep as the states nest: one
// on a Paraver trace, whose states follow one another).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/definitions.hpp"
#include "model/state_names.hpp"

namespace mtf::otf2 {

class StateRegionPlan {
 public:
  // Ids from the first free ones of `defs`, strings from `firstFreeString`.
  StateRegionPlan(const Definitions& defs, uint64_t firstFreeString);

  struct Track {
    LocationId location = 0;                    // the states location
    std::vector<std::pair<Tick, Ref>> pending;  // (end, region), innermost last
    uint64_t states = 0;                        // States written as its regions
  };
  // The states location of `owner`, defined at its first call.
  Track& trackOf(LocationId owner);
  // The region of `state`, defined at its first call.
  Ref regionOf(uint64_t state);
  // The states locations in the order they were made.
  const std::vector<LocationId>& locations() const { return order_; }
  std::vector<Track*> tracks();
  // The States of `owner` written as regions (they are its events, read back).
  uint64_t statesOf(LocationId owner) const;
  bool empty() const { return order_.empty(); }
  // The definitions made: strings, regions, locations (event counts from `eventCounts`),
  // then their properties.
  std::vector<DefRecord> records(const std::unordered_map<LocationId, uint64_t>& eventCounts) const;

 private:
  Ref string(std::string text);

  StateNames names_;
  std::vector<LocationView> views_;  // of the definitions' locations
  std::unordered_map<LocationId, size_t> viewOf_;
  uint64_t nextString_;
  Ref nextRegion_ = 0;
  LocationId nextLocation_ = 0;
  std::unordered_map<LocationId, Track> tracks_;
  std::unordered_map<uint64_t, Ref> regions_;
  std::vector<LocationId> order_;
  std::unordered_map<LocationId, std::pair<LocationId, uint64_t>> ownerAndGroup_;
  std::vector<DefRecord> strings_, regionRecords_;
};

}  // namespace mtf::otf2
