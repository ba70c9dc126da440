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
      "paraver/pypop-epoch-2proc/epoch_2proc.prv.gz",
      "tau/opencl-l5",
      "tau/opencl-l9"};
  return traces;
}

inline const char* kGzippedQsort = "paraver/paraver-kernel-qsort/qsort_beo3.prv.gz";

// The breadth families (a test over every real trace, times every output format or
// selection: CrossFormat, Selection, CutWindow, GraphRealTrace, StoredAnalysesReal) take
// their traces from here. Every real trace, unless the test program is built with
// MTF_TEST_TRACE_SUBSET (cmake -DMTF_TEST_TRACE_SUBSET=ON, set by scripts/test-sanitize.sh):
// then a subset that still runs every reader and writer path under the sanitizers: the
// smallest trace of each reader (OTF2, Paraver plain and gzipped, TAU) and the traces with
// a path of their own (metrics, MPI collectives, thread-to-thread messages and calls open
// at the end). The larger traces of a format add events, not code paths; the gcc suite
// runs them all.
inline bool inTraceSubset(const std::string& path) {
#ifdef MTF_TEST_TRACE_SUBSET
  static const char* const kSubset[] = {
      "otf2/pipit-ping-pong-papi/traces.otf2",              // MPI p2p, PAPI metrics
      "otf2/sst-macro-mpi/traces.otf2",                     // MPI collectives, communicators
      "paraver/paraver-kernel-qsort/qsort_beo3.prv",        // smallest Paraver
      kGzippedQsort,                                        // the .prv.gz reader
      "paraver/compss-cholesky/cholesky_autoparallel.prv",  // thread messages, open calls
      "tau/opencl-l5"};                                     // smallest TAU
  for (const char* kept : kSubset)
    if (path == kept) return true;
  return false;
#else
  (void)path;
  return true;
#endif
}

inline const std::vector<std::string>& breadthTraces() {
  static const std::vector<std::string> traces = [] {
    std::vector<std::string> kept;
    for (const std::string& path : realTraces())
      if (inTraceSubset(path)) kept.push_back(path);
    return kept;
  }();
  return traces;
}

// A GoogleTest parameter name for a trace path: its index, then its letters and digits.
inline std::string traceTestName(size_t index, const std::string& path) {
  std::string name = std::to_string(index);
  for (char c : path) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace mtf::test
