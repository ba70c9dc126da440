// Validation of MTF XML against schema/mtf.xsd. Xerces-C does it, in a module of its own
// (mtf-xsd-validator.so, xsd_validator_module.cpp) loaded only when a document is
// validated: linked into the program, Xerces' 40-odd libraries were bound at the start of
// every command.
#pragma once

#include <filesystem>
#include <vector>

namespace mtf::xml {

// The XSD to validate with: `explicitPath` if given; else the installed copy
// (<bin>/../share/mtf/mtf.xsd or <bin>/schema/mtf.xsd beside the running program); else
// the source tree's schema/mtf.xsd. Throws mtf::IoError if none exists.
std::filesystem::path locateSchema(const std::filesystem::path& explicitPath = {});

// Where the validation module is looked for, in order: beside the running program (the
// build tree), the install's library folder relative to the program's, the install
// prefix it was configured with, the build tree that built this library.
std::vector<std::filesystem::path> validatorModuleCandidates();

// Throws mtf::InputError("DOC", "line L, column C", message) at the first problem of the
// document; mtf::IoError if the document or the schema cannot be read, the schema is bad
// or no usable validation module is among `modules`.
void validateAgainstSchema(
    const std::filesystem::path& document, const std::filesystem::path& schema,
    const std::vector<std::filesystem::path>& modules = validatorModuleCandidates());

}  // namespace mtf::xml
