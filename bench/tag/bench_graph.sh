#!/usr/bin/env bash
# `mtf graph` (issue 20) on the 14 M-event wavefront (16 ranks x 249 iterations x 160 inner
# steps, OTF2): time against otf2_bare_read (the OTF2 library reading every event into
# empty callbacks; goal: at most 2x), and peak memory at 249 and at 2,490 iterations
# (goal: flat, the graph does not grow with the iterations).
# Usage: bench/tag/bench_graph.sh [BUILD_DIR]   (default: build)
# RUNS (default 3): runs of each program, alternating, best counts. MEM_INNER (default 160):
# the inner steps of the two memory traces (the 2,490-iteration one is 141 M events, 1.9 GB).
set -euo pipefail

MEM_INNER=${MEM_INNER:-160}
BENCH=tag
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
generate() { wavefront_trace "$@"; }


TRACE=$(generate 249 160)
EVENTS=$("$BARE" "$TRACE" | awk '{print $1}')
echo "trace: $TRACE, $EVENTS events"

# The programs run in turn, so that load from other processes hits all alike.
BARE_W="" BARE_C="" PTAG_W="" PTAG_C="" FOLD_W="" FOLD_C=""
for ((i = 0; i < RUNS; i++)); do
  read -r w c _ < <(run_time "$BARE" "$TRACE")
  BARE_W=$(min "$BARE_W" "$w"); BARE_C=$(min "$BARE_C" "$c")
  read -r w c _ < <(run_time "$MTF" -q graph "$TRACE" -o "$WORK/ptag.graphml" --force)
  PTAG_W=$(min "$PTAG_W" "$w"); PTAG_C=$(min "$PTAG_C" "$c")
  read -r w c _ < <(run_time "$MTF" -q graph "$TRACE" -o "$WORK/folded.graphml" --force --fold-ranks)
  FOLD_W=$(min "$FOLD_W" "$w"); FOLD_C=$(min "$FOLD_C" "$c")
done
ratio() { echo "$1 / $2" | bc -l; }
printf 'otf2_bare_read:          wall %.2f s, cpu %.2f s\n' "$BARE_W" "$BARE_C"
printf 'mtf graph (PTAG):        wall %.2f s, cpu %.2f s = %.2fx / %.2fx the bare read (goal <= 2)\n' \
  "$PTAG_W" "$PTAG_C" "$(ratio "$PTAG_W" "$BARE_W")" "$(ratio "$PTAG_C" "$BARE_C")"
printf 'mtf graph --fold-ranks:  wall %.2f s, cpu %.2f s = %.2fx / %.2fx the bare read\n' \
  "$FOLD_W" "$FOLD_C" "$(ratio "$FOLD_W" "$BARE_W")" "$(ratio "$FOLD_C" "$BARE_C")"

declare -A RSS NODES
for iterations in 249 2490; do
  trace=$(generate "$iterations" "$MEM_INNER")
  read -r _ _ rss < <(run_time "$MTF" -q graph "$trace" -o "$WORK/mem.graphml" --force --fold-ranks)
  RSS[$iterations]=$rss
  NODES[$iterations]=$(grep -c '<node ' "$WORK/mem.graphml")
  printf 'peak memory, %5s iterations x %s inner: %7d KB (folded PTAG: %s nodes)\n' \
    "$iterations" "$MEM_INNER" "$rss" "${NODES[$iterations]}"
done
printf 'peak memory 2,490 / 249 iterations: %.3fx (goal: flat)\n' "$(ratio "${RSS[2490]}" "${RSS[249]}")"
