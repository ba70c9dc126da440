// The OTF2 entry of the format registry.
#pragma once

#include "registry/registry.hpp"

namespace mtf {

// name "otf2", output extension ".otf2"; sniffs an anchor file (by content) or a
// directory holding exactly one.
FormatEntry otf2Format();

}  // namespace mtf
