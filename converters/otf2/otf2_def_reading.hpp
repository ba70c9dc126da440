// Global definitions of an OTF2 archive -> the model's DefRecords (definition_kinds.def).
#pragma once

#include <otf2/otf2.h>

#include <exception>

#include "model/definitions.hpp"

namespace mtf::otf2 {

struct DefReadState {
  Definitions* defs = nullptr;
  uint64_t unknownRecords = 0;  // definition records the library could not name
  bool sawClockProperties = false;
  std::exception_ptr error;  // thrown inside a callback; rethrown after reading
};

// Registers a callback for every OTF2 3.0 global definition kind; `state` must outlive
// the reading.
void registerDefinitionCallbacks(OTF2_GlobalDefReaderCallbacks* callbacks);

}  // namespace mtf::otf2
