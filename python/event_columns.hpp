// The events of a trace as columns (one std::vector per column), filled a block of rows at
// a time while the trace streams and handed to numpy without a copy: no Python object per event.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>
#include <vector>

#include "mtf/mtf.hpp"

namespace mtf::python {

namespace py = pybind11;

class EventColumns {
 public:
  // `expected`: how many events the trace says it has (a hint; 0 if unknown).
  explicit EventColumns(uint64_t expected);
  // The rows of a block (Trace::eventRows), each column appended in one go.
  void add(const api::EventRows& rows);
  // The columns as numpy arrays ("kind" holds codes into the returned kind names, the
  // kinds present in kind order), leaving this object empty.
  py::tuple release();

 private:
  std::vector<uint64_t> location_, time_, size_;
  std::vector<int8_t> kind_;
  std::vector<int32_t> region_, partner_, comm_;
  std::vector<int64_t> tag_;
  std::array<uint64_t, 256> kindCounts_{};
};

}  // namespace mtf::python
