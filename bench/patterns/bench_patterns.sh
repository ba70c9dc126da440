#!/bin/sh
# Pattern detection speed and memory on the generated 14-million-event wavefront trace,
# as ratios to a bare read of the same trace measured in the same run.
#   bench/patterns/bench_patterns.sh BUILD_DIR [RANKS ITERATIONS INNER]
# Goal (issue 7): detection at most 2x the time of reading the trace.
# The paper's figures (section V) are printed as events per second for comparison.
set -eu
BUILD=${1:?usage: bench_patterns.sh BUILD_DIR [RANKS ITERATIONS INNER]}
RANKS=${2:-16}
ITERATIONS=${3:-249}
INNER=${4:-160}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtf-bench-patterns.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
TRACE="$WORK/wavefront.otf2"

"$BUILD/mtf-gen" wavefront --ranks "$RANKS" --iterations "$ITERATIONS" --inner "$INNER" \
  -o "$TRACE" -q
ANCHOR=$(find "$WORK" -name '*.otf2' -type f | head -n 1)
[ -n "$ANCHOR" ] || ANCHOR="$TRACE"

run() {  # MODE -> "seconds events peak_kb"
  /usr/bin/time -f 'peak_kb %M' "$BUILD/bench/patterns/bench_patterns" "$1" "$ANCHOR" \
    > "$WORK/$1.out" 2> "$WORK/$1.err" || { cat "$WORK/$1.err" >&2; exit 1; }
  secs=$(awk '{print $3}' "$WORK/$1.out")
  events=$(awk '{print $5}' "$WORK/$1.out")
  peak=$(awk '/peak_kb/ {print $2}' "$WORK/$1.err")
  echo "$secs $events $peak"
}

# Warm the page cache, then measure.
run read > /dev/null
set -- $(run read);    READ_S=$1; EVENTS=$2; READ_KB=$3
set -- $(run detect);  DET_S=$1; DET_KB=$3
set -- $(run analyze); ANA_S=$1; ANA_KB=$3
KNOWN=$(cut -d' ' -f6- "$WORK/analyze.out")

awk -v e="$EVENTS" -v r="$READ_S" -v d="$DET_S" -v a="$ANA_S" -v rk="$READ_KB" \
    -v dk="$DET_KB" -v ak="$ANA_KB" -v known="$KNOWN" 'BEGIN {
  printf "trace: generated wavefront, %d events\n", e
  printf "bare read:            %8.2f s  peak %7d KB  (baseline)\n", r, rk
  printf "detection:            %8.2f s  peak %7d KB  time %.2fx read (goal <= 2x), memory %.2fx\n", d, dk, d / r, dk / rk
  printf "detection + analysis: %8.2f s  peak %7d KB  time %.2fx read, memory %.2fx\n", a, ak, a / r, ak / rk
  printf "known patterns found: %s\n", known
  printf "speed: %.0f events/s; paper (Core 2 Duo): WRF 336960 ev in 37 s = %.0f ev/s (%.0fx), SP 38544 in 12 s = %.0f ev/s (%.0fx), FLASH 633490 in 228 s = %.0f ev/s (%.0fx)\n", e / a, 336960 / 37, (e / a) / (336960 / 37), 38544 / 12, (e / a) / (38544 / 12), 633490 / 228, (e / a) / (633490 / 228)
}'
