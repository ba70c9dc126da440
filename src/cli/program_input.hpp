// What `mtf model`, `mtf matrix` and `mtf extract` share: the program-wide model of a
// trace, built from the per-location NLR nests (MPI messages and collectives, the
// defaults of `mtf loops`).
#pragma once

#include <string>

#include "model/definitions.hpp"
#include "nlr/signature.hpp"
#include "program/program_model.hpp"

namespace mtf::cli {

struct ProgramInput {
  Definitions defs;
  program::ProgramModel model;
  uint32_t fields = nlr::kAllFields;  // signature fields kept (for printing events)
};

// The event selection the model is built from (also the positions `mtf extract` counts).
nlr::SignatureOptions programSignatureOptions();
ProgramInput readProgramModel(const std::string& trace, bool lenient);

}  // namespace mtf::cli
