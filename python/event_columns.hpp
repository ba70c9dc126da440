// The events of a trace as columns (one std::vector per column), filled while the trace
// streams and handed to numpy without a copy: no Python object per event.
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
  void add(const api::Event& e) {
    location_.push_back(e.location);
    time_.push_back(e.time);
    kind_.push_back(static_cast<int8_t>(e.kind));
    ++kindCounts_[e.kind];
    region_.push_back(static_cast<int32_t>(e.region));  // kNoRef becomes -1
    partner_.push_back(static_cast<int32_t>(e.partner));
    tag_.push_back(e.tag);
    size_.push_back(e.size);
    comm_.push_back(static_cast<int32_t>(e.comm));
  }
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
