// The model's DefRecords -> OTF2 global definition records.
#pragma once

#include <otf2/otf2.h>

#include "model/definitions.hpp"

namespace mtf::otf2 {

// Writes one definition record; returns the library's status (OTF2_ERROR_INVALID_ARGUMENT
// when the record has fewer fields than its kind needs).
OTF2_ErrorCode writeDefinition(OTF2_GlobalDefWriter* writer, const DefRecord& record);

}  // namespace mtf::otf2
