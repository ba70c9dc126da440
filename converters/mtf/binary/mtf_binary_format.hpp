// The "mtf" entry of the format registry: the MTF binary archive (.mtf).
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry mtfBinaryFormat();

}  // namespace mtf
