#!/usr/bin/env bash
# A change to the Paraver writer against the unchanged binary OLD (a copy of build/mtf made
# before the change): (1) outputs: `convert T -o x.prv` (.prv, .pcf, .row) and its messages
# byte-identical, the header's date "(dd/mm/yyyy at hh:mm)" left out, for every trace of
# ../shared/traces and tests/data, the 16-rank wavefronts of 1.1 M and 14.2 M events, the
# 1,024-rank wavefront (`--ranks 1024 --iterations 10 --inner 8`) and a time window;
# (2) CPU: RUNS (default 5) rounds of the bare OTF2 read, OLD and NEW (build/mtf) on the
# 14.2 M-event wavefront, one after the other (paired runs), and their medians.
# Outputs go to OUT_DIR (default WORK; /dev/shm shows the writer's own work: see
# bench_text.sh). Usage: bench/text/compare_prv.sh OLD [BUILD_DIR]
set -euo pipefail
OLD=$(realpath "${1:?usage: compare_prv.sh OLD_MTF [BUILD_DIR]}")
shift
BENCH=text
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
ROOT=$(dirname "$0")/../..
OUT=${OUT_DIR:-$WORK}/compare-prv
RUNS=${RUNS:-5}

# convert_both NAME INPUT [OPTION...] : prints "same NAME" or "DIFFERS NAME"; 1 if it differs
convert_both() {
  local name=$1 in=$2 status_a=0 status_b=0
  shift 2
  "$OLD" -q convert "$in" -o "$OUT-a.prv" --force "$@" >/dev/null 2>"$OUT-a.err" || status_a=$?
  "$MTF" -q convert "$in" -o "$OUT-b.prv" --force "$@" >/dev/null 2>"$OUT-b.err" || status_b=$?
  sed -i "s|$OUT-a|$OUT-b|g" "$OUT-a.err"
  local same=1 ext
  [[ $status_a == "$status_b" ]] && cmp -s "$OUT-a.err" "$OUT-b.err" || same=0
  if ((same && status_a == 0)); then
    cmp -s <(sed '1s/([^)]*)//' "$OUT-a.prv") <(sed '1s/([^)]*)//' "$OUT-b.prv") || same=0
    for ext in pcf row; do
      [[ ! -f $OUT-a.$ext && ! -f $OUT-b.$ext ]] || cmp -s "$OUT-a.$ext" "$OUT-b.$ext" || same=0
    done
  fi
  rm -f "$OUT"-[ab].*
  if ((same)); then echo "  same     $name"; else echo "  DIFFERS  $name"; return 1; fi
}

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

echo "outputs of $MTF against $OLD:"
total=0 differ=0
inputs=()
for dir in "$ROOT"/../shared/traces/*/* "$ROOT"/tests/data/*/*; do
  [[ -d $dir ]] || continue
  file=$(find "$dir" -maxdepth 1 \( -name '*.otf2' -o -name '*.prv' -o -name '*.prv.gz' \) | sort | head -1)
  inputs+=("${file:-$dir}")  # a TAU trace is its folder
done
inputs+=("$(wavefront_trace 20 160)" "$(wavefront_trace 249 160)" "$(bench_trace ranks1024)")
for in in "${inputs[@]}"; do
  total=$((total + 1))
  convert_both "$in" "$in" || differ=$((differ + 1))
done
total=$((total + 1))
convert_both "window of $(wavefront_trace 20 160)" "$(wavefront_trace 20 160)" \
  --begin 100000000t --end 300000000t || differ=$((differ + 1))
echo "  $((total - differ)) of $total conversions byte-identical"

trace=$(wavefront_trace 249 160)
declare -a bare=() old=() new=()
for ((i = 0; i < RUNS; i++)); do
  read -r _ c _ < <(run_time "$BARE" "$trace"); bare+=("$c")
  read -r _ c peak_old < <(run_time "$OLD" -q convert "$trace" -o "$OUT.prv" --force); old+=("$c")
  read -r _ c peak_new < <(run_time "$MTF" -q convert "$trace" -o "$OUT.prv" --force); new+=("$c")
done
rm -f "$OUT".*
b=$(median "${bare[@]}")
echo "CPU on $trace, medians of $RUNS paired runs: bare read $b s"
# row NAME PEAK_KB CPU... : the median CPU as a ratio to the bare read, the last run's peak
row() {
  local name=$1 peak=$2 m
  shift 2
  m=$(median "$@")
  printf '  %-4s %6.2f s = %sx the bare read (runs: %s), peak memory %d MB\n' "$name" "$m" \
    "$(awk -v a="$m" -v b="$b" 'BEGIN {printf "%.2f", a / b}')" "$*" $((peak / 1024))
}
row old "$peak_old" "${old[@]}"
row new "$peak_new" "${new[@]}"
exit $((differ > 0))
