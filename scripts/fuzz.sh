#!/usr/bin/env bash
# Long fuzz campaigns, outside the test suite: builds the libFuzzer targets with clang
# (ASan + UBSan) and runs each for SECONDS (default 600), keeping the grown corpus in
# build-fuzz/corpus/<target> between runs. Prints the executions of each target.
# Crashing inputs land in build-fuzz/findings/; turn each into a regression seed under
# tests/fuzz/corpus/<target>/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-600}
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTF_FUZZ=ON -DMTF_SANITIZE=ON -DMTF_TESTS=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" >/dev/null
mkdir -p build-fuzz/findings
for fuzzer in build-fuzz/tests/fuzz/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  name=$(basename "$fuzzer")
  corpus=build-fuzz/corpus/$name
  mkdir -p "$corpus"
  cp -rn "tests/fuzz/corpus/$name/." "$corpus/" 2>/dev/null || true
  (cd build-fuzz/findings && "../../$fuzzer" "../../$corpus" -max_total_time="$SECONDS_PER_TARGET" \
     -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 40 > "$name.log" || true)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/findings/$name.log" | grep -o '[0-9]*$' || echo 0)
  echo "$name: $execs executions, corpus $(ls "$corpus" | wc -l) inputs"
done
