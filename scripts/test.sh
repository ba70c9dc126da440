#!/usr/bin/env bash
# Installs the dependencies, builds mtf and runs the whole test suite (what CI runs).
# MTF_BUILD_DIR (default build) and MTF_JOBS (default: number of cores) may be set.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
BUILD=${MTF_BUILD_DIR:-build}
JOBS=${MTF_JOBS:-$(nproc)}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${MTF_CMAKE_ARGS:-}
cmake --build "$BUILD" -j "$JOBS"
cd "$BUILD"
ctest --output-on-failure -j "$JOBS" --timeout 600
