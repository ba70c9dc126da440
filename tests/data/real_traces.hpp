// The real traces of tests/data, for parameterized tests: every test that runs over "every
// real trace" takes its list from here, so a trace added to tests/data is added once.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace mtf::test {

// Paths relative to tests/data (MTF_DATA_DIR). The gzipped qsort is the same trace as
// qsort_beo3.prv; suites that test decompression add it themselves.
inline const std::vector<std::string>& realTraces() {
  static const std::vector<std::string> traces = {
      "otf2/pipit-ping-pong/traces.otf2",
      "otf2/pipit-ping-pong-papi/traces.otf2",
      "otf2/sst-macro-mpi/traces.otf2",
      "otf2/fastotf2-mi300/traces.otf2",
      "paraver/paraver-kernel-qsort/qsort_beo3.prv",
      "paraver/profet-lulesh/lulesh_4+4_with_uncores_sockets1+2.chop_5it.prv",
      "paraver/compss-cholesky/cholesky_autoparallel.prv",
      "tau/opencl-l5",
      "tau/opencl-l9"};
  return traces;
}

inline const char* kGzippedQsort = "paraver/paraver-kernel-qsort/qsort_beo3.prv.gz";

// A GoogleTest parameter name for a trace path: its index, then its letters and digits.
inline std::string traceTestName(size_t index, const std::string& path) {
  std::string name = std::to_string(index);
  for (char c : path) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace mtf::test
