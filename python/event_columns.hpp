// The events of a trace as columns, filled a block of rows at a time while the trace
// streams, each in a mapping of its own sized from the trace's event count
// (mapped_column.hpp), and handed to numpy without a copy: no Python object per event.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <cstdint>

#include "mapped_column.hpp"
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
  MappedColumn<uint64_t> location_, time_, size_;
  MappedColumn<int8_t> kind_;
  MappedColumn<int32_t> region_, partner_, comm_;
  MappedColumn<int64_t> tag_;
  std::array<bool, 256> kindSeen_{};
};

}  // namespace mtf::python
