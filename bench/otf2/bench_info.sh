#!/usr/bin/env bash
# OTF2 reader speed: times `mtf info TRACE` against otf2_bare_read (the OTF2 library
# reading every event into empty callbacks) on a generated trace of >= 10 million events,
# and prints the ratio (goal: at most 1.3).
# Usage: bench/otf2/bench_info.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BUILD=${1:-build}
GEN=$BUILD/mtf-gen
MTF=$BUILD/mtf
BARE=$BUILD/bench/otf2/otf2_bare_read
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/mtf-bench-otf2}

for tool in "$GEN" "$MTF" "$BARE"; do
  [[ -x $tool ]] || { echo "missing $tool: build the targets mtf, mtf-gen and otf2_bare_read" >&2; exit 1; }
done

mkdir -p "$WORK"
TRACE=$WORK/wavefront.otf2
if [[ ! -f $TRACE ]]; then
  echo "generating $TRACE ..."
  "$GEN" wavefront --ranks 16 --iterations 249 --inner 160 -o "$TRACE" >/dev/null
fi
EVENTS=$("$BARE" "$TRACE" | awk '{print $1}')
echo "trace: $TRACE, $EVENTS events"
if (( EVENTS < 10000000 )); then
  echo "warning: fewer than 10 million events" >&2
fi

# Best (minimum) wall time of $RUNS runs, in seconds.
best_time() {
  local best=""
  for ((i = 0; i < RUNS; i++)); do
    local start end t
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [[ -z $best ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
  done
  echo "$best"
}

BARE_T=$(best_time "$BARE" "$TRACE")
INFO_T=$(best_time "$MTF" info "$TRACE")
printf 'otf2_bare_read: %.3f s (%.1f Mevents/s)\n' "$BARE_T" "$(echo "$EVENTS / $BARE_T / 1000000" | bc -l)"
printf 'mtf info:       %.3f s (%.1f Mevents/s)\n' "$INFO_T" "$(echo "$EVENTS / $INFO_T / 1000000" | bc -l)"
printf 'ratio mtf info / bare read: %.2f (goal <= 1.30)\n' "$(echo "$INFO_T / $BARE_T" | bc -l)"
