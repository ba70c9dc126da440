// Definitions of a trace: everything events refer to. Small; held in memory whole.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/schema.hpp"
#include "model/types.hpp"

namespace mtf {

enum class DefKind : uint16_t {
#define MTF_DEF(name, spec) name,
#include "model/definition_kinds.def"
#undef MTF_DEF
  Count
};

inline constexpr size_t kDefKindCount = static_cast<size_t>(DefKind::Count);

const KindSchema& schemaOf(DefKind kind);
std::string_view nameOf(DefKind kind);
bool defKindFromName(std::string_view name, DefKind& kind);

// One definition record, fields in the order of its kind's schema.
struct DefRecord {
  DefKind kind = DefKind::String;
  std::vector<uint64_t> fields;
  std::string text;  // the characters of a String definition

  uint64_t field(std::string_view name) const;
  bool operator==(const DefRecord&) const = default;
};

struct ClockProperties {
  uint64_t resolution = 1'000'000'000;  // ticks per second
  uint64_t globalOffset = 0;
  uint64_t traceLength = 0;
  uint64_t realtime = kUndefinedId;  // OTF2_UNDEFINED_TIMESTAMP when unknown
  bool operator==(const ClockProperties&) const = default;
};

// OTF2 enumerations the rest of the pipeline looks at.
enum class LocationType : uint8_t { Unknown = 0, CpuThread = 1, Gpu = 2, Metric = 3 };
enum class RegionRole : uint8_t {
  Unknown = 0,
  Function = 1,
  Wrapper = 2,
  Loop = 3,
  Code = 4,
  Barrier = 15,
  CollOne2All = 23,
  CollAll2One = 24,
  CollAll2All = 25,
  CollOther = 26,
  PointToPoint = 28
};
enum class Paradigm : uint8_t { Unknown = 0, User = 1, Compiler = 2, OpenMp = 3, Mpi = 4 };
// OTF2_GroupType values used for MPI communicators.
enum class GroupType : uint8_t { Locations = 1, CommLocations = 4, CommGroup = 5, CommSelf = 6 };

struct LocationView {
  LocationId id = 0;
  std::string_view name;
  LocationType type = LocationType::Unknown;
  uint64_t declaredEvents = 0;  // as the trace claims: never trust it for allocation
  uint64_t group = 0;           // location group (process)
};

struct RegionView {
  Ref id = kUndefinedRef;
  std::string_view name;
  RegionRole role = RegionRole::Unknown;
  Paradigm paradigm = Paradigm::Unknown;
};

// Trace-level facts that are not OTF2 definitions.
struct TraceInfo {
  std::string format;   // "otf2", "paraver", "tau", "mtf"
  std::string creator;  // e.g. "Score-P 7.1"
  std::string version;  // version of the format the input was written in
  // Format-specific facts kept for a lossless round trip (e.g. "paraver.header").
  std::map<std::string, std::string> properties;
};

class Definitions {
 public:
  ClockProperties clock;
  TraceInfo info;

  // Appends a record and indexes it by (kind, self id) when the kind has a 'self'.
  void add(DefRecord record);
  const std::vector<DefRecord>& records() const { return records_; }

  // The record of `kind` with this self id, or nullptr.
  const DefRecord* find(DefKind kind, uint64_t self) const;
  // The characters of a String definition; "" for kUndefinedRef or an unknown ref.
  std::string_view string(uint64_t ref) const;

  std::vector<LocationView> locations() const;  // in definition order
  RegionView region(Ref ref) const;
  std::string_view regionName(Ref ref) const { return region(ref).name; }
  // The members of a group (location-group or location ids, or ranks).
  std::vector<uint64_t> groupMembers(uint64_t groupRef) const;
  // The members of metric class `r`, or of the class of metric instance `r`; false if `r`
  // is neither or its class is not defined.
  bool metricMembersOf(const DefRecord& r, std::vector<uint64_t>& members) const;
  size_t count(DefKind kind) const;

 private:
  std::vector<DefRecord> records_;
  // key: kind in the top 16 bits is not enough for 64-bit ids, so one map per kind.
  std::vector<std::unordered_map<uint64_t, size_t>> index_{kDefKindCount};
  std::vector<size_t> counts_ = std::vector<size_t>(kDefKindCount, 0);  // records per kind
};

// Convenience for readers and generators that build definitions from scratch:
// allocates ids and interns strings.
class DefinitionBuilder {
 public:
  explicit DefinitionBuilder(Definitions& defs) : defs_(defs) {}
  Ref string(std::string_view text);
  uint64_t systemTreeNode(std::string_view name, std::string_view className,
                          uint64_t parent = kUndefinedId);
  uint64_t locationGroup(std::string_view name, uint64_t systemTreeParent,
                         uint8_t type = 1 /* process */);
  void location(LocationId id, std::string_view name, uint64_t group,
                LocationType type = LocationType::CpuThread, uint64_t events = 0);
  Ref region(std::string_view name, RegionRole role, Paradigm paradigm);
  Ref group(std::string_view name, uint8_t type, Paradigm paradigm,
            const std::vector<uint64_t>& members);
  Ref comm(std::string_view name, Ref group, Ref parent = kUndefinedRef);
  Ref parameter(std::string_view name, uint8_t type);
  // A metric member plus a metric class holding only it; returns the metric class ref.
  Ref metric(std::string_view name, std::string_view unit, uint8_t valueType);

 private:
  Ref next(DefKind kind);
  // Looked up by string_view, without building a std::string per lookup.
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
  };
  Definitions& defs_;
  std::unordered_map<std::string, Ref, TextHash, std::equal_to<>> strings_;
  std::vector<uint64_t> nextId_ = std::vector<uint64_t>(kDefKindCount, 0);
};

// Locations in the order of their definitions, those without one after, by id: the order
// of NlrSink::results() and of mtf-mpi's merged archive and program model.
class DefinitionOrder {
 public:
  explicit DefinitionOrder(const Definitions& defs);
  // Sorting by this key gives the order.
  std::pair<size_t, LocationId> key(LocationId location) const {
    const auto it = position_.find(location);
    return {it != position_.end() ? it->second : position_.size(), location};
  }

 private:
  std::unordered_map<LocationId, size_t> position_;
};

}  // namespace mtf
