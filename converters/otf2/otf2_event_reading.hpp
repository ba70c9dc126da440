// OTF2 event records -> the model's Event, delivered to a sink in batches.
#pragma once

#include <otf2/otf2.h>

#include <exception>

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
  bool conventionInUse = false;  // any of the above defined: check Parameter events
  uint64_t unknownRecords = 0;
  uint64_t delivered = 0;
  Progress* progress = nullptr;
  std::exception_ptr error;  // thrown inside a callback (by the sink); rethrown by the reader
};

void registerEventCallbacks(OTF2_EvtReaderCallbacks* callbacks);

}  // namespace mtf::otf2
