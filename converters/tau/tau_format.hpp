// The registry entry of the TAU format.
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry tauFormat();

}  // namespace mtf
