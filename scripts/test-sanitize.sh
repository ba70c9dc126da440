#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (issue 8), called by
# scripts/test.sh. One clang build (build-asan) with -DMTF_SANITIZE=ON -DMTF_FUZZ=ON: every
# unit, CLI and bad-input test, plus a short smoke run of each libFuzzer target over its
# seed corpus (fuzz_smoke_*, MTF_FUZZ_SMOKE_SECONDS each, default 20). Any sanitizer report
# stops the process (halt_on_error) and fails its test.
# Environment: MTF_ASAN_BUILD_DIR (default build-asan), MTF_JOBS (default: cores),
# MTF_FUZZ_SMOKE_SECONDS, MTF_CTEST_ARGS (extra ctest arguments, e.g. "-R bad_input").
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
BUILD=${MTF_ASAN_BUILD_DIR:-build-asan}
JOBS=${MTF_JOBS:-$(nproc)}
# -gline-tables-only instead of clang's -g: sanitizer reports keep their file and line, and
# the compiler emits no full debug info of gtest's and the library's templates. No benchmark
# programs (-DMTF_BENCH=OFF): no test runs them.
# -DMTF_TEST_TRACE_SUBSET=ON: the breadth families, which run the same commands over every
# real trace times every output format or selection (CrossFormat, Selection, CutWindow,
# GraphRealTrace, StoredAnalysesReal; StoredAnalysesShared over ../shared/traces), run here
# over a subset of the traces (tests/data/real_traces.hpp, breadthTraces()): the smallest
# trace of each reader and each trace with a code path of its own (metrics, collectives,
# thread-to-thread messages, calls open at the end), so every reader and writer path still
# runs under ASan + UBSan; the larger traces of a format add events, not paths. The gcc
# suite (scripts/test.sh, step 1) runs every trace. GraphRealTrace also leaves out the two
# traces whose graphs networkx (Python, not sanitized) takes longest to check.
SAN_FLAGS="-O2 -gline-tables-only -DNDEBUG"
CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$SAN_FLAGS" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$SAN_FLAGS" \
  -DMTF_SANITIZE=ON -DMTF_FUZZ=ON -DMTF_TESTS=ON -DMTF_BENCH=OFF -DMTF_TEST_TRACE_SUBSET=ON \
  -DMTF_FUZZ_SMOKE_SECONDS="${MTF_FUZZ_SMOKE_SECONDS:-20}" >/dev/null
cmake --build "$BUILD" -j "$JOBS"
# detect_leaks: LeakSanitizer too. abort_on_error=0 keeps exit codes meaningful for tests
# that expect a status; halt_on_error makes any report fatal.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# Third-party leaks only (OTF2 on a damaged anchor); see the file.
export LSAN_OPTIONS=suppressions=$PWD/tests/fuzz/lsan.supp
cd "$BUILD"
# shellcheck disable=SC2086  # MTF_CTEST_ARGS may hold several arguments
ctest --output-on-failure -j "$JOBS" --timeout 1200 ${MTF_CTEST_ARGS:-}
