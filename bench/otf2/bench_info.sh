#!/usr/bin/env bash
# OTF2 reader speed: times `mtf info TRACE` against otf2_bare_read (the OTF2 library
# reading every event into empty callbacks) on a generated trace of >= 10 million events,
# and prints the ratio (goal: at most 1.3).
# Usage: bench/otf2/bench_info.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=otf2
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
TRACE=$(wavefront_trace 249 160)
EVENTS=$("$BARE" "$TRACE" | awk '{print $1}')
echo "trace: $TRACE, $EVENTS events"
if (( EVENTS < 10000000 )); then
  echo "warning: fewer than 10 million events" >&2
fi

# The two programs run alternately, so that load from other processes hits both alike;
# the best (minimum) time of each counts. CPU time (user + system) is less disturbed than
# wall time by other processes sharing the machine.
BARE_W="" BARE_C="" INFO_W="" INFO_C=""
for ((i = 0; i < RUNS; i++)); do
  read -r w c _ < <(run_time "$BARE" "$TRACE")
  BARE_W=$(min "$BARE_W" "$w"); BARE_C=$(min "$BARE_C" "$c")
  read -r w c _ < <(run_time "$MTF" info "$TRACE")
  INFO_W=$(min "$INFO_W" "$w"); INFO_C=$(min "$INFO_C" "$c")
done
rate() { echo "$EVENTS / $1 / 1000000" | bc -l; }
printf 'otf2_bare_read: wall %.2f s, cpu %.2f s (%.1f Mevents/s)\n' "$BARE_W" "$BARE_C" "$(rate "$BARE_C")"
printf 'mtf info:       wall %.2f s, cpu %.2f s (%.1f Mevents/s)\n' "$INFO_W" "$INFO_C" "$(rate "$INFO_C")"
printf 'ratio mtf info / bare read: wall %.2f, cpu %.2f (goal <= 1.30)\n' \
  "$(echo "$INFO_W / $BARE_W" | bc -l)" "$(echo "$INFO_C / $BARE_C" | bc -l)"
