// The names of the model's State values, for writers that draw states as intervals
// (OTF2 regions, Chrome slices). A State comes from Paraver, whose .pcf (kept in the
// trace's properties as "paraver.pcf") names each value in its STATES section.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "model/definitions.hpp"

namespace mtf {

class StateNames {
 public:
  // The labels of the STATES section of `info.properties["paraver.pcf"]`, if any.
  explicit StateNames(const TraceInfo& info);
  // The .pcf's label of `state`, else "State N".
  std::string nameOf(uint64_t state) const;

 private:
  std::unordered_map<uint64_t, std::string> labels_;
};

}  // namespace mtf
