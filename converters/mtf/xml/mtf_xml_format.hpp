// The "mtf-xml" entry of the format registry: reads and writes .mtf.xml files.
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry mtfXmlFormat();

}  // namespace mtf
