// The registry entry of Chrome's Trace Event Format (write only).
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry chromeFormat();

}  // namespace mtf
