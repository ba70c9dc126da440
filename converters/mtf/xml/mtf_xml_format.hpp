// The "mtf-xml" entry of the format registry: reads and writes .mtf.xml files.
#pragma once

#include "registry/registry.hpp"

namespace mtf {

FormatEntry mtfXmlFormat();

namespace xml {

// `mtf validate` for MTF XML: validates `path` against the schema with Xerces-C (the XSD
// at `schema`, or found by locateSchema when empty), then rebuilds the model (every
// reference and count checked) and, unless the file is structure-only, expands every
// event so that each value column is decoded against the DAG. Throws InputError with
// "line L, column C" (schema) or the place of the first problem; returns a one-line
// summary of the valid file.
std::string validateMtfXmlFile(const std::filesystem::path& path,
                               const std::filesystem::path& schema = {});

}  // namespace xml

}  // namespace mtf
