// The events of a trace as columns, filled a block of rows at a time while the trace
// streams, each in a mapping of its own sized from the trace's event count
// (mapped_column.hpp), and handed to numpy without a copy: no Python object per event.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "mapped_column.hpp"
#include "mtf/mtf.hpp"

namespace mtf::python {

namespace py = pybind11;

// The columns events() can build, in the DataFrame's default order.
inline constexpr std::array<const char*, 8> kColumnNames = {"location", "time", "kind", "region",
                                                            "partner",  "tag",  "size", "comm"};
// A set of columns: bit i for kColumnNames[i].
using ColumnSet = uint32_t;
inline constexpr ColumnSet kAllColumns = (ColumnSet{1} << kColumnNames.size()) - 1;
// The set of the named columns; std::invalid_argument naming an unknown one.
ColumnSet columnSetOf(const std::vector<std::string>& names);

class EventColumns {
 public:
  // `expected`: how many events the trace says it has (a hint; 0 if unknown). Only the
  // columns in `wanted` are filled (the others take no memory: one page each). `exact`:
  // `expected` is the exact count (Trace::eventCount): the columns hold that many rows
  // from the start, filled by place().
  EventColumns(uint64_t expected, ColumnSet wanted = kAllColumns, bool exact = false);
  // The rows of a block (Trace::eventRows), each column appended in one go.
  void add(const api::EventRows& rows);
  // The rows of a block as rows [first, first + rows.count) of `exact` columns
  // (Trace::eventRowsOnThreads): safe on several threads at once, each for rows of its own.
  void place(uint64_t first, const api::EventRows& rows);
  // The wanted columns as numpy arrays by name ("kind" holds codes into the returned kind
  // names, the kinds present in kind order), leaving this object empty.
  py::tuple release();

 private:
  bool wants(size_t column) const { return (wanted_ >> column) & 1; }
  uint64_t roomFor(size_t column, uint64_t expected, bool exact) const;
  void resizeWanted(uint64_t rows);
  void writeKinds(int8_t* to, const api::EventRows& rows);

  ColumnSet wanted_;  // first: the columns' sizes depend on it
  MappedColumn<uint64_t> location_, time_, size_;
  MappedColumn<int8_t> kind_;
  MappedColumn<int32_t> region_, partner_, comm_;
  MappedColumn<int64_t> tag_;
  std::array<std::atomic<bool>, 128> kindSeen_{};  // set by place() on several threads
};

}  // namespace mtf::python
