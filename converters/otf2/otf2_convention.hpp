// The agreed way of carrying model kinds OTF2 lacks through an OTF2 archive:
//   State(end, state)  -> a region on a location of its own, so that viewers (Vampir) draw
//                         it: location "<thread name> states" (CPU_THREAD, the thread's
//                         group, location property "mtf:states_of" = the thread's id),
//                         region named by the .pcf's label of the state (description
//                         "mtf:state N"), Enter at the state's time with attributes
//                         "mtf:state_end" (UINT64) = end and "mtf:state_position" (UINT64)
//                         = the number of events of the thread written before it (the
//                         reader puts the State back at exactly that place), Leave at end.
//                         The states location holds nothing else. Its own location, not
//                         the thread: a thread's states need not nest with its calls
//                         (Extrae changes the state at an MPI call's enter and leave, at
//                         equal times). A state that ends before it begins is left at its
//                         begin (its end is the attribute's); one that would cross a state
//                         still open on the states location is written as before:
//   State(end, state)  -> ParameterUnsignedInt(parameter "mtf:state", state)
//                         + attribute "mtf:state_end" (UINT64) = end
//   Generic(type, val) -> ParameterInt(parameter "mtf:generic", val)
//                         + attribute "mtf:generic_type" (UINT64) = type
//   Leave(MPI call), MpiSend at the same time, in a trace read from Paraver
//                      -> MpiSend + attribute "mtf:send_after_leave" (UINT64) = 1, then the
//                         Leave. Extrae gives a blocking send when the message left, the
//                         end of the call: its communication record follows the call's last
//                         line, and the Paraver reader keeps that order. OTF2 tools look for
//                         a send inside its MPI call (Scalasca's wait states, Vampir's
//                         message lines): written inside it, at the same time; read back
//                         after the Leave again, without the attribute, so a .prv comes
//                         back byte for byte. Only when the attribute's definition is
//                         planned by the writer (not where the input defines the others).
// The definitions involved are plumbing, not part of the trace: the reader removes them
// from the definitions it reports and the writer adds them only when needed, so a trace
// round-trips with identical definitions.
#pragma once

#include <unordered_map>
#include <unordered_set>

#include "model/definitions.hpp"

namespace mtf::otf2 {

struct ConventionRefs {
  Ref stateParameter = kUndefinedRef;
  Ref stateEndAttribute = kUndefinedRef;
  Ref genericParameter = kUndefinedRef;
  Ref genericTypeAttribute = kUndefinedRef;
  Ref statePositionAttribute = kUndefinedRef;
  Ref sendAfterLeaveAttribute = kUndefinedRef;
  bool any() const {
    return stateParameter != kUndefinedRef || genericParameter != kUndefinedRef ||
           stateEndAttribute != kUndefinedRef || sendAfterLeaveAttribute != kUndefinedRef;
  }
};

// The states locations of an archive and the regions of their states.
struct StateLocations {
  std::unordered_map<LocationId, LocationId> statesOf;  // thread -> its states location
  std::unordered_set<LocationId> locations;             // the states locations
  std::unordered_map<Ref, uint64_t> stateOfRegion;      // region -> state value
  bool any() const { return !locations.empty(); }
};
StateLocations findStateLocations(const Definitions& defs);

// The references of the convention's definitions present in `defs`.
ConventionRefs findConvention(const Definitions& defs);
// `defs` without the convention's Parameter and Attribute records, the states locations,
// their properties and the states' regions, and without their strings (when no other
// definition uses them).
Definitions withoutConvention(const Definitions& defs, const ConventionRefs& refs,
                              const StateLocations& states);

// The definitions a writer must add to `defs` to use the convention, with ids that clash
// with none of `defs`.
struct ConventionDefinitions {
  ConventionRefs refs;
  std::vector<DefRecord> records;  // Strings, then Attributes, then Parameters
};
// The convention's definitions a writer adds: `records` without the send-after-leave
// attribute and its name unless `sendMarkerUsed` (it comes last among the strings and
// the attributes, so leaving it out leaves no gap in their ids).
std::vector<DefRecord> conventionRecordsToWrite(const ConventionDefinitions& plan,
                                                bool sendMarkerUsed);
ConventionDefinitions planConvention(const Definitions& defs);

}  // namespace mtf::otf2
