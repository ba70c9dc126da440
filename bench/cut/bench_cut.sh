#!/usr/bin/env bash
# Cutting a small time window out of a large .mtf archive against converting it all
# (issue 31: cutting 1% of the time of a 141 M-event archive should take under 5% of
# converting it all). Public tools only: mtf-gen makes a 16-rank wavefront (ITERATIONS x
# 160 inner steps: 2490, the default, give the issue's 141.8 M events, made in about 3
# minutes here; 249 give 14.2 M, where the fixed costs weigh more: 12% to 19%),
# `mtf convert` makes it an archive, then times `mtf convert ARCHIVE -o OUT.otf2` whole and
# with --begin/--end around 1% of the run's time in its middle (the window reads only the
# column chunks the index places in it; what lies before comes from the DAG's nodes).
# Usage: bench/cut/bench_cut.sh [BUILD_DIR]   (default: build; RUNS, ITERATIONS, WORK)
set -euo pipefail

BUILD=${1:-build}
GEN=$BUILD/mtf-gen
MTF=$BUILD/mtf
RUNS=${RUNS:-3}
ITERATIONS=${ITERATIONS:-2490}
WORK=${WORK:-/tmp/mtf-bench-cut}
for tool in "$GEN" "$MTF"; do
  [[ -x $tool ]] || { echo "missing $tool: build the targets mtf_cli and mtf-gen" >&2; exit 1; }
done
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
mkdir -p "$WORK"

ARCHIVE=$WORK/wavefront-$ITERATIONS.mtf
if [[ ! -f $ARCHIVE ]]; then
  "$GEN" wavefront --ranks 16 --iterations "$ITERATIONS" --inner 160 -q -o "$WORK/in.otf2"
  "$MTF" -q convert "$WORK/in.otf2" -o "$ARCHIVE"
  rm -rf "$WORK/in.otf2" "$WORK/in"
fi
info=$("$MTF" -q info --json "$ARCHIVE")
events=$(jq .events <<<"$info")
# The events' span in ticks; the window: 1% of it, from its middle.
start=$(jq .first_timestamp <<<"$info")
length=$(jq .time_span_ticks <<<"$info")
[[ $length -gt 0 ]] || { echo "no time span in mtf info --json" >&2; exit 1; }
from=$((start + length / 2)) to=$((start + length / 2 + length / 100))
echo "archive: $ARCHIVE, $events events, $(du -h "$ARCHIVE" | cut -f1); window [$from, $to) ticks (1%)"

# run_time COMMAND... : wall seconds of one run
run_time() {
  /usr/bin/time -o "$WORK/time.txt" -f "%e" "$@" >/dev/null 2>&1
  cat "$WORK/time.txt"
}
min() { awk -v a="$1" -v b="$2" 'BEGIN {print (a == "" || b < a) ? b : a}'; }

# Alternate runs, so that load from other processes hits both alike; the best of each counts.
ALL="" CUT=""
for ((i = 0; i < RUNS; i++)); do
  rm -rf "$WORK/out"
  ALL=$(min "$ALL" "$(run_time "$MTF" -q convert "$ARCHIVE" -o "$WORK/out/all.otf2")")
  CUT=$(min "$CUT" "$(run_time "$MTF" -q convert "$ARCHIVE" -o "$WORK/out/cut.otf2" \
    --begin "${from}t" --end "${to}t")")
done
kept=$("$MTF" -q info --json "$WORK/out/cut.otf2" | jq .events)
printf 'convert all:        %6.2f s  (%s events)\n' "$ALL" "$events"
printf 'convert 1%% window: %6.2f s  (%s events)\n' "$CUT" "$kept"
printf 'ratio (window / all): %.1f%%\n' "$(echo "100 * $CUT / $ALL" | bc -l)"
