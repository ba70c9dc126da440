// What `mtf model`, `mtf matrix` and `mtf extract` share: the program-wide model of a
// trace, built from the per-location NLR nests (MPI messages and collectives, the
// defaults of `mtf loops`), or read from an MTF archive that stores it
// (`mtf convert` stores it unless `--no-model`, annotation "program.model").
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
  bool stored = false;                // read from the archive, not rebuilt
};

// `recompute`: build the model from the events even if the archive stores one.
ProgramInput readProgramModel(const std::string& trace, bool lenient, bool recompute = false);

}  // namespace mtf::cli
