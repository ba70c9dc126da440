#!/usr/bin/env bash
# Long fuzz campaigns, outside the test suite: builds the libFuzzer targets with clang
# (ASan + UBSan) and runs each for SECONDS (default 600), keeping the grown corpus in
# build-fuzz/corpus/<target> between runs. Prints the executions of each target.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (default: every tests/fuzz/fuzz_*.cpp)
# Environment: MTF_FUZZ_RUNS=N stops each target after N executions instead (SECONDS is
# then only a cap); MTF_FUZZ_MODE=fast builds without ASan (UBSan only, in
# build-fuzz-fast) for volume, about 2-3x the executions per second, then replays the
# whole grown corpus once under the ASan + UBSan build.
# Seeds: tests/fuzz/corpus/<target> (from mtf-gen), plus, read-only, inputs derived at run
# time from the real traces in tests/data (MTF_TRACES): Paraver and TAU files in
# each target's input layout, and MTF/MTF-XML conversions of the real traces (needs
# build/mtf). libFuzzer cuts inputs longer than -max_len (64 KB), so big traces serve as
# excerpts. Crashing inputs land in build-fuzz/findings/; turn each into a regression seed
# under tests/fuzz/corpus/<target>/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-600}
shift || true
TRACES=${MTF_TRACES:-$PWD/tests/data}
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi
MODE=${MTF_FUZZ_MODE:-asan}
# build_targets DIR: builds the fuzz targets quietly, showing the build's output if it fails.
build_targets() {
  local log
  log=$(mktemp)
  cmake --build "$1" -j "$(nproc)" --target "${targets[@]}" >"$log" 2>&1 ||
    { cat "$log"; rm -f "$log"; echo "fuzz.sh: building $1 failed" >&2; exit 1; }
  rm -f "$log"
}
RUNS=${MTF_FUZZ_RUNS:--1}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMTF_FUZZ=ON -DMTF_SANITIZE=ON -DMTF_TESTS=OFF >/dev/null
build_targets build-fuzz
build=build-fuzz
if [ "$MODE" = fast ]; then
  build=build-fuzz-fast
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMTF_FUZZ=ON -DMTF_TESTS=OFF -DCMAKE_CXX_FLAGS="-g -fsanitize=undefined \
    -fno-sanitize-recover=undefined" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=undefined >/dev/null
  build_targets "$build"
fi

# extra_corpus TARGET DIR: real-trace inputs in the target's layout (see tests/fuzz/fuzz_*.cpp).
extra_corpus() {
  local target=$1 dir=$2 f
  mkdir -p "$dir"
  [ -d "$TRACES" ] || return 0
  case $target in
    fuzz_paraver_prv)
      for f in "$TRACES"/paraver/*/*.prv; do
        { cat "$f"; printf '\n@@PCF@@\n'; cat "${f%.prv}.pcf" 2>/dev/null || true; } \
          > "$dir/$(basename "$f")"
      done ;;
    fuzz_tau)
      for f in "$TRACES"/tau/*/events.*.edf; do
        local n=${f##*/events.} && n=${n%.edf}
        local trc=$(dirname "$f")/tautrace.$n.0.0.trc
        [ -f "$trc" ] || continue
        { cat "$f"; printf '\n@@TRC@@\n'; head -c 65536 "$trc"; } \
          > "$dir/$(basename "$(dirname "$f")")-$n"
      done ;;
    fuzz_mtf_binary | fuzz_mtf_xml)
      local ext=mtf && [ "$target" = fuzz_mtf_xml ] && ext=mtf.xml
      [ -x build/mtf ] || return 0
      for f in "$TRACES"/otf2/*/traces.otf2 "$TRACES"/paraver/*/*.prv; do
        local out=$dir/$(basename "$(dirname "$f")").$ext
        build/mtf convert "$f" -o "$out" --force >/dev/null 2>&1 || rm -f "$out"
      done ;;
  esac
}

mkdir -p build-fuzz/findings
for name in "${targets[@]}"; do
  fuzzer=$build/tests/fuzz/$name
  [ -x "$fuzzer" ] || { echo "$name: not built"; continue; }
  corpus=build-fuzz/corpus/$name extra=build-fuzz/extra/$name
  mkdir -p "$corpus"
  cp -rn "tests/fuzz/corpus/$name/." "$corpus/" 2>/dev/null || true
  extra_corpus "$name" "$extra"
  dict=() && [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="$PWD/tests/fuzz/$name.dict")
  (cd build-fuzz/findings && "../../$fuzzer" "../../$corpus" "../../$extra" \
     -max_total_time="$SECONDS_PER_TARGET" -runs="$RUNS" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
     -print_final_stats=1 "${dict[@]}" > "$name.log" 2>&1 || true)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/findings/$name.log" |
          grep -o '[0-9]*$' || echo 0)
  crashes=$(grep -c -E '^==[0-9]+==ERROR|Test unit written to' "build-fuzz/findings/$name.log" || true)
  echo "$name: $execs executions, corpus $(ls "$corpus" | wc -l) inputs, $crashes crash reports"
  if [ "$MODE" = fast ]; then
    # Every input the volume run kept, once, under ASan + UBSan.
    (cd build-fuzz/findings && "../../build-fuzz/tests/fuzz/$name" -runs=0 -close_fd_mask=2 \
       -rss_limit_mb=2048 "../../$corpus" > "$name.asan-replay.log" 2>&1 || true)
    replayed=$(grep -c -E '^==[0-9]+==ERROR|runtime error' \
               "build-fuzz/findings/$name.asan-replay.log" || true)
    echo "$name: corpus replayed under ASan + UBSan, $replayed reports"
  fi
done
