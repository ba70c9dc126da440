// The communication matrix of the program model or of one construct (seed V-A, Figure 6):
// a post-order traversal, a loop's matrix being its count times its body's. Messages are
// counted at their send events, sender x receiver in world ranks (-1: not a rank).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "program/program_model.hpp"

namespace mtf::program {

struct MatrixCell {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  bool operator==(const MatrixCell&) const = default;
};
using CommMatrix = std::map<std::pair<int64_t, int64_t>, MatrixCell>;

CommMatrix matrixOf(const Construct& c, const ProgramModel& model);
CommMatrix matrixOf(const System& s, const ProgramModel& model);

// The construct at PATH ("2.1": the second construct of the body of the third top-level
// one, counted from 0); throws UsageError naming the part that does not exist.
// `occurrences` (if given) receives how many times it runs: the product of the counts of
// the loops around it.
const Construct& constructAt(const ProgramModel& model, const std::string& path,
                             uint64_t* occurrences = nullptr);
// The matrix of the construct at PATH over the whole run (every occurrence).
CommMatrix matrixAt(const ProgramModel& model, const std::string& path);

}  // namespace mtf::program
