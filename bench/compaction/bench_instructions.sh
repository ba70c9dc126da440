#!/usr/bin/env bash
# Work of OTF2 -> .mtf counted in machine instructions (valgrind's callgrind), against the
# bare OTF2 read of the same trace, and split by thread: unlike times, these counts do not
# depend on what else runs on the machine, so a change can be judged on a loaded machine.
# The trace is a small wavefront (16 ranks, ITERATIONS (default 30) x 160, ~1.7 M events;
# with 10 iterations the OTF2 library's fixed start-up cost was a third of the bare read):
# callgrind runs about 50x slower than the program.
#   total          every thread of `mtf convert`, against the bare read
#   reading            the two reading lanes: OTF2 reading and the event model (and the
#                      counts `convert` prints)
#   compaction thread  the DAG and the value columns' rows (Compactor::event)
#   NLR thread         loop detection (NlrSink::event)
#   chunk threads      value columns coded and compressed (ChunkCompressor::run, its workers)
# Instructions are not time (cache misses, branch misses and the threads' overlap are left
# out); bench_speed.sh measures time.
# TRACE=PATH or TRACE=ranks1024: another trace, as for bench_speed.sh.
# Usage: bench/compaction/bench_instructions.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=compaction
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
if ! command -v valgrind >/dev/null; then
  [[ $(id -u) = 0 ]] || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
  apt-get install -y -qq valgrind >/dev/null
fi
ITERATIONS=${ITERATIONS:-30}
TRACE=$(bench_trace "${TRACE:-}" "$ITERATIONS" 160)

# callgrind OUT COMMAND... : runs COMMAND under callgrind, one profile per thread (OUT-NN)
callgrind() {
  local out=$1 && shift
  rm -f "$out"*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "$@" \
    >/dev/null 2>&1
}
# thread_with SYMBOL : the profile file of the thread that ran SYMBOL
thread_with() {
  grep -l "$1" "$WORK"/cg-convert-* 2>/dev/null | head -1
}

callgrind "$WORK/cg-bare" "$BARE" "$TRACE"
callgrind "$WORK/cg-nomap" "$BARE" --no-mappings "$TRACE"
callgrind "$WORK/cg-convert" "$MTF" -q convert "$TRACE" -o "$WORK/instructions.mtf" --force
bare=$(instructions "$WORK"/cg-bare-*)
nomap=$(instructions "$WORK"/cg-nomap-*)
total=$(instructions "$WORK"/cg-convert-*)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "trace: $TRACE ($("$BARE" "$TRACE" | awk '{print $1}') events)"
printf "  %-34s %14s instructions\n" "otf2_bare_read" "$bare"
printf "  %-34s %14s instructions\n" "otf2_bare_read --no-mappings" "$nomap"
printf "  %-34s %14s instructions = %5sx the bare read\n" "mtf convert -> .mtf, all threads" \
  "$total" "$(ratio "$total" "$bare")"
# The reading lanes (the main thread and one more, see otf2_reader.hpp), together.
mapfile -t lanes < <(grep -l "Otf2Reader::readLane" "$WORK"/cg-convert-* 2>/dev/null)
if ((${#lanes[@]})); then
  n=$(instructions "${lanes[@]}")
  printf "  %-34s %14s instructions = %5sx the bare read\n" "  reading (${#lanes[@]} lanes)" "$n" \
    "$(ratio "$n" "$bare")"
fi
for part in "compaction thread:Compactor::event" "NLR thread:NlrSink::event"; do
  file=$(thread_with "${part#*:}")
  [[ -n $file ]] || continue
  n=$(instructions "$file")
  printf "  %-34s %14s instructions = %5sx the bare read\n" "  ${part%%:*}" "$n" \
    "$(ratio "$n" "$bare")"
done
# The chunk workers (one per core, at most two), together.
mapfile -t workers < <(grep -l "ChunkCompressor::run" "$WORK"/cg-convert-* 2>/dev/null)
if ((${#workers[@]})); then
  n=$(instructions "${workers[@]}")
  printf "  %-34s %14s instructions = %5sx the bare read\n" "  chunk threads (${#workers[@]} workers)" \
    "$n" "$(ratio "$n" "$bare")"
fi
