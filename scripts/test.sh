#!/usr/bin/env bash
# Installs the dependencies, builds mtf and runs the whole test suite (what CI runs):
# 1. a release build (gcc) and every test: unit, end-to-end, golden, real traces, bad inputs;
# 2. scripts/test-sanitize.sh: the same suite under ASan + UBSan (clang), plus a short smoke
#    run of every fuzz target. MTF_SKIP_SANITIZE=1 skips step 2 for quick local runs. There
#    the breadth families (every real trace times every output format or selection) run over
#    a subset of the traces that still runs every reader and writer path (the reasons in
#    test-sanitize.sh); step 1 runs them over every trace.
# MTF_BUILD_DIR (default build) and MTF_JOBS (default: number of cores) may be set.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
BUILD=${MTF_BUILD_DIR:-build}
JOBS=${MTF_JOBS:-$(nproc)}
# -DMTF_PYTHON=ON: the Python module is built and its pytest suite runs with the rest.
# -DMTF_MPI=ON: mtf-mpi is built and its tests run under mpirun with 2 and 4 processes.
# -g1 (line tables: backtraces keep file and line) instead of -g: a third less compile time
# for gcc on the test files, where full debug info of gtest's templates is most of the work.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DMTF_PYTHON=ON -DMTF_MPI=ON ${MTF_CMAKE_ARGS:-}
cmake --build "$BUILD" -j "$JOBS"
(cd "$BUILD" && ctest --output-on-failure -j "$JOBS" --timeout 600)
if [ "${MTF_SKIP_SANITIZE:-0}" != 1 ]; then
  bash "$ROOT/scripts/test-sanitize.sh"
fi
