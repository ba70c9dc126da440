// OTF2 event records -> the model's Event, delivered to a sink in batches.
#pragma once

#include <otf2/otf2.h>

#include <exception>
#include <unordered_map>

#include "model/trace_stream.hpp"
#include "util/progress.hpp"

namespace mtf::otf2 {

// Everything the event callbacks share. Events are written into the slots of batches
// (model/event_batch.hpp) if the sink prefers batches, else into one Event handed on at
// once; both are reused, so reading allocates nothing per event once the vectors have
// grown.
struct EventReadState {
  TraceSink* sink = nullptr;
  EventBatcher* batcher = nullptr;  // null: single events
  Event single;
  // References of the definitions that carry State and Generic (kUndefinedRef if absent).
  Ref stateParameter = kUndefinedRef;
  Ref stateEndAttribute = kUndefinedRef;
  Ref genericParameter = kUndefinedRef;
  Ref genericTypeAttribute = kUndefinedRef;
  Ref sendAfterLeaveAttribute = kUndefinedRef;
  bool conventionInUse = false;  // any of the above defined: check Parameter events
  // An MpiSend written before the Leave it followed (otf2_convention.hpp), held until the
  // next event of its location: that Leave goes first.
  bool sendHeld = false;
  Event heldSend;
  uint64_t unknownRecords = 0;
  uint64_t delivered = 0;
  Progress* progress = nullptr;
  std::exception_ptr error;  // thrown inside a callback (by the sink); rethrown by the reader
};

void registerEventCallbacks(OTF2_EvtReaderCallbacks* callbacks);

// A State read back from a states location (otf2_convention.hpp): its Enter gives the
// State of the thread `owner`, held until the thread's events before it are delivered.
struct StateHold {
  Ref endAttribute = kUndefinedRef;
  Ref positionAttribute = kUndefinedRef;
  const std::unordered_map<Ref, uint64_t>* stateOfRegion = nullptr;
  LocationId owner = 0;
  bool held = false;
  uint64_t position = 0;  // events of the thread before it
  Event event;
  uint64_t ignored = 0;  // Enters that are not a state's (Leaves are the states' ends)
};
// Enter -> StateHold (user data); every other record is skipped.
void registerStateCallbacks(OTF2_EvtReaderCallbacks* callbacks);
// Hands `e` to the sink as the callbacks do (in the current batch, if batching), after
// a held send.
void deliverEvent(EventReadState& s, const Event& e);
// Hands on a held send (at the end of its location's events).
void deliverHeldSend(EventReadState& s);

}  // namespace mtf::otf2
