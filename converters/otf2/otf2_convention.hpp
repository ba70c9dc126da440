// The agreed way of carrying model kinds OTF2 lacks through an OTF2 archive:
//   State(end, state)  -> ParameterUnsignedInt(parameter "mtf:state", state)
//                         + attribute "mtf:state_end" (UINT64) = end
//   Generic(type, val) -> ParameterInt(parameter "mtf:generic", val)
//                         + attribute "mtf:generic_type" (UINT64) = type
// The definitions involved are plumbing, not part of the trace: the reader removes them
// from the definitions it reports and the writer adds them only when needed, so a trace
// round-trips with identical definitions.
#pragma once

#include "model/definitions.hpp"

namespace mtf::otf2 {

struct ConventionRefs {
  Ref stateParameter = kUndefinedRef;
  Ref stateEndAttribute = kUndefinedRef;
  Ref genericParameter = kUndefinedRef;
  Ref genericTypeAttribute = kUndefinedRef;
  bool any() const { return stateParameter != kUndefinedRef || genericParameter != kUndefinedRef; }
};

// The references of the convention's definitions present in `defs`.
ConventionRefs findConvention(const Definitions& defs);
// `defs` without the convention's Parameter and Attribute records and without their name
// strings (when no other definition uses them).
Definitions withoutConvention(const Definitions& defs, const ConventionRefs& refs);

// The definitions a writer must add to `defs` to use the convention, with ids that clash
// with none of `defs`.
struct ConventionDefinitions {
  ConventionRefs refs;
  std::vector<DefRecord> records;  // Strings, then Attributes, then Parameters
};
ConventionDefinitions planConvention(const Definitions& defs);

}  // namespace mtf::otf2
