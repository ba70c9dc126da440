// The registry entry of the Paraver format.
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry paraverFormat();

}  // namespace mtf
