// Validation of MTF XML against schema/mtf.xsd with Xerces-C (streaming SAX2, so a large
// file is never held in memory). DTDs and every external entity are refused; the only
// file Xerces opens besides the document is the schema.
#pragma once

#include <filesystem>

namespace mtf::xml {

// The XSD to validate with: `explicitPath` if given; else the installed copy
// (<bin>/../share/mtf/mtf.xsd or <bin>/schema/mtf.xsd beside the running program); else
// the source tree's schema/mtf.xsd. Throws mtf::IoError if none exists.
std::filesystem::path locateSchema(const std::filesystem::path& explicitPath = {});

// Throws mtf::InputError("DOC", "line L, column C", message) at the first problem of the
// document; mtf::IoError if the document or the schema cannot be read or the schema is bad.
void validateAgainstSchema(const std::filesystem::path& document,
                           const std::filesystem::path& schema);

}  // namespace mtf::xml
