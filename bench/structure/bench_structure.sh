#!/usr/bin/env bash
# mtf structure's cost: times `mtf structure TRACE` against otf2_bare_read (the OTF2 library
# reading every event into empty callbacks) on the 14 M-event wavefront and prints the ratio
# (goal: at most 2). Usage: bench/structure/bench_structure.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=structure
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
TRACE=$(wavefront_trace 249 160)
echo "trace: $TRACE, $("$BARE" "$TRACE" | awk '{print $1}') events"


# Alternate runs, so that load from other processes hits both alike; the best of each counts.
BARE_W="" BARE_C="" S_W="" S_C=""
for ((i = 0; i < RUNS; i++)); do
  read -r w c _ < <(run_time "$BARE" "$TRACE")
  BARE_W=$(min "$BARE_W" "$w"); BARE_C=$(min "$BARE_C" "$c")
  read -r w c _ < <(run_time "$MTF" -q structure "$TRACE")
  S_W=$(min "$S_W" "$w"); S_C=$(min "$S_C" "$c")
done
printf 'otf2_bare_read: wall %.2f s, cpu %.2f s\n' "$BARE_W" "$BARE_C"
printf 'mtf structure:  wall %.2f s, cpu %.2f s\n' "$S_W" "$S_C"
printf 'ratio (structure / bare read): wall %.2fx, cpu %.2fx\n' \
  "$(echo "$S_W / $BARE_W" | bc -l)" "$(echo "$S_C / $BARE_C" | bc -l)"
