#include "converters/otf2/otf2_convention.hpp"

#include <otf2/otf2.h>

#include <algorithm>
#include <set>

#include "converters/otf2/otf2_common.hpp"

namespace mtf::otf2 {

namespace {

Ref refNamed(const Definitions& defs, DefKind kind, std::string_view name) {
  for (const DefRecord& r : defs.records())
    if (r.kind == kind && r.fields.size() > 1 && defs.string(r.fields[1]) == name)
      return static_cast<Ref>(r.fields[0]);
  return kUndefinedRef;
}

bool isConventionRecord(const DefRecord& r, const ConventionRefs& refs,
                        const StateLocations& states) {
  if (r.kind == DefKind::Parameter)
    return r.fields[0] == refs.stateParameter || r.fields[0] == refs.genericParameter;
  if (r.kind == DefKind::Attribute)
    return r.fields[0] == refs.stateEndAttribute || r.fields[0] == refs.genericTypeAttribute ||
           r.fields[0] == refs.statePositionAttribute ||
           r.fields[0] == refs.sendAfterLeaveAttribute;
  if (r.kind == DefKind::Location || r.kind == DefKind::LocationProperty)
    return states.locations.count(r.fields[0]) != 0;
  if (r.kind == DefKind::Region) return states.stateOfRegion.count(r.fields[0]) != 0;
  return false;
}

// The state value of a region described "mtf:state N".
bool stateOfDescription(std::string_view description, uint64_t& state) {
  if (!description.starts_with(kStateRegionPrefix)) return false;
  description.remove_prefix(kStateRegionPrefix.size());
  if (description.empty()) return false;
  state = 0;
  for (const char c : description) {
    if (c < '0' || c > '9') return false;
    state = state * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

// Every string reference held by a definition field, by the kind's schema.
void collectStringRefs(const DefRecord& r, std::set<uint64_t>& used) {
  const KindSchema& schema = schemaOf(r.kind);
  for (size_t i = 0; i < r.fields.size(); ++i) {
    const size_t spec =
        i < schema.fixedCount ? i : schema.fixedCount + (i - schema.fixedCount) % schema.groupSize;
    if (spec >= schema.fields.size()) break;
    const FieldSpec& f = schema.fields[spec];
    if (f.type == FieldType::Ref && f.refKind == "string" && f.name != "self")
      used.insert(r.fields[i]);
  }
}

uint64_t nextFreeId(const Definitions& defs, DefKind kind) {
  uint64_t next = 0;
  for (const DefRecord& r : defs.records())
    if (r.kind == kind && r.fields[0] != kUndefinedRef) next = std::max(next, r.fields[0] + 1);
  return next;
}

}  // namespace

ConventionRefs findConvention(const Definitions& defs) {
  ConventionRefs refs;
  refs.stateParameter = refNamed(defs, DefKind::Parameter, kStateParameter);
  refs.stateEndAttribute = refNamed(defs, DefKind::Attribute, kStateEndAttribute);
  refs.genericParameter = refNamed(defs, DefKind::Parameter, kGenericParameter);
  refs.genericTypeAttribute = refNamed(defs, DefKind::Attribute, kGenericTypeAttribute);
  refs.statePositionAttribute = refNamed(defs, DefKind::Attribute, kStatePositionAttribute);
  refs.sendAfterLeaveAttribute = refNamed(defs, DefKind::Attribute, kSendAfterLeaveAttribute);
  return refs;
}

// Locations with the property "mtf:states_of" (UINT64, the owner), and the regions of
// states; nothing without the convention's position attribute.
StateLocations findStateLocations(const Definitions& defs) {
  StateLocations states;
  if (refNamed(defs, DefKind::Attribute, kStatePositionAttribute) == kUndefinedRef) return states;
  for (const DefRecord& r : defs.records()) {
    uint64_t state = 0;
    if (r.kind == DefKind::LocationProperty && r.fields.size() == 4 &&
        defs.string(r.fields[1]) == kStatesOfProperty && r.fields[2] == OTF2_TYPE_UINT64) {
      states.statesOf[r.fields[3]] = r.fields[0];
      states.locations.insert(r.fields[0]);
    } else if (r.kind == DefKind::Region && r.fields.size() > 3 &&
               stateOfDescription(defs.string(r.fields[3]), state)) {
      states.stateOfRegion[r.fields[0]] = state;
    }
  }
  if (states.locations.empty()) states.stateOfRegion.clear();
  return states;
}

Definitions withoutConvention(const Definitions& defs, const ConventionRefs& refs,
                              const StateLocations& states) {
  std::set<uint64_t> conventionNames, usedElsewhere;
  for (const DefRecord& r : defs.records()) {
    if (isConventionRecord(r, refs, states)) {
      collectStringRefs(r, conventionNames);
    } else if (r.kind != DefKind::String) {
      collectStringRefs(r, usedElsewhere);
    }
  }
  Definitions out;
  out.clock = defs.clock;
  out.info = defs.info;
  for (const DefRecord& r : defs.records()) {
    if (isConventionRecord(r, refs, states)) continue;
    if (r.kind == DefKind::String && conventionNames.count(r.fields[0]) &&
        !usedElsewhere.count(r.fields[0]))
      continue;
    out.add(r);
  }
  return out;
}

ConventionDefinitions planConvention(const Definitions& defs) {
  ConventionDefinitions plan;
  uint64_t nextString = nextFreeId(defs, DefKind::String);
  uint64_t nextAttribute = nextFreeId(defs, DefKind::Attribute);
  uint64_t nextParameter = nextFreeId(defs, DefKind::Parameter);
  std::vector<DefRecord> attributes, parameters;
  auto define = [&](std::string_view name, DefKind kind, uint8_t type) {
    const uint64_t nameRef = nextString++;
    plan.records.push_back({DefKind::String, {nameRef}, std::string(name)});
    if (kind == DefKind::Attribute) {
      // The description is the name itself: one string less.
      attributes.push_back({kind, {nextAttribute, nameRef, nameRef, type}, {}});
      return static_cast<Ref>(nextAttribute++);
    }
    parameters.push_back({kind, {nextParameter, nameRef, type}, {}});
    return static_cast<Ref>(nextParameter++);
  };
  plan.refs.stateParameter =
      define(kStateParameter, DefKind::Parameter, OTF2_PARAMETER_TYPE_UINT64);
  plan.refs.stateEndAttribute = define(kStateEndAttribute, DefKind::Attribute, OTF2_TYPE_UINT64);
  plan.refs.genericParameter =
      define(kGenericParameter, DefKind::Parameter, OTF2_PARAMETER_TYPE_INT64);
  plan.refs.genericTypeAttribute =
      define(kGenericTypeAttribute, DefKind::Attribute, OTF2_TYPE_UINT64);
  plan.refs.statePositionAttribute =
      define(kStatePositionAttribute, DefKind::Attribute, OTF2_TYPE_UINT64);
  // Last: conventionRecordsToWrite leaves it out when unused.
  plan.refs.sendAfterLeaveAttribute =
      define(kSendAfterLeaveAttribute, DefKind::Attribute, OTF2_TYPE_UINT64);
  plan.records.insert(plan.records.end(), attributes.begin(), attributes.end());
  plan.records.insert(plan.records.end(), parameters.begin(), parameters.end());
  return plan;
}

std::vector<DefRecord> conventionRecordsToWrite(const ConventionDefinitions& plan,
                                                bool sendMarkerUsed) {
  std::vector<DefRecord> out;
  const Ref marker = plan.refs.sendAfterLeaveAttribute;
  uint64_t markerName = kUndefinedRef;
  for (const DefRecord& r : plan.records)
    if (r.kind == DefKind::Attribute && r.fields[0] == marker) markerName = r.fields[1];
  for (const DefRecord& r : plan.records) {
    const bool isMarker = (r.kind == DefKind::Attribute && r.fields[0] == marker) ||
                          (r.kind == DefKind::String && r.fields[0] == markerName);
    if (sendMarkerUsed || !isMarker) out.push_back(r);
  }
  return out;
}

}  // namespace mtf::otf2
