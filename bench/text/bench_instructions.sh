#!/usr/bin/env bash
# Work of the text writers in machine instructions (valgrind's callgrind, every thread),
# against the bare OTF2 read of the same trace: unlike times, these counts do not depend on
# what else runs on the machine. The trace is a small wavefront (16 ranks, ITERATIONS
# (default 20) x 160, ~1.1 M events; its .prv, 57 MB, still spills a sorted run to disk),
# then the largest real OTF2 trace, ../shared/traces/otf2/casita-jacobi-gpu, if present
# (TRACES=... replaces both).
#   .prv   mtf convert T -o x.prv
#   tau    mtf convert T -o dir --to tau
#   dump   mtf dump T > /dev/null
# Usage: bench/text/bench_instructions.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=text
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
SHARED=$(dirname "$0")/../../../shared/traces/otf2/casita-jacobi-gpu/traces.otf2
if [[ -z ${TRACES:-} ]]; then
  TRACES=$(wavefront_trace "${ITERATIONS:-20}" 160)
  [[ -f $SHARED ]] && TRACES="$TRACES $SHARED"
fi

# callgrind OUT COMMAND... : runs COMMAND under callgrind, one profile per thread (OUT-NN)
callgrind() {
  local out=$1 && shift
  rm -f "$out"*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "$@" \
    >/dev/null 2>&1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

bench_trace() {
  local trace=$1 bare n name
  callgrind "$WORK/cg-bare" "$BARE" "$trace"
  callgrind "$WORK/cg-prv" "$MTF" -q convert "$trace" -o "$WORK/instructions.prv" --force
  callgrind "$WORK/cg-tau" "$MTF" -q convert "$trace" -o "$WORK/instructions.tau" --to tau --force
  callgrind "$WORK/cg-dump" "$MTF" dump "$trace"
  rm -rf "$WORK"/instructions.*
  bare=$(instructions "$WORK"/cg-bare-*)
  echo "trace: $trace ($("$BARE" "$trace" | awk '{print $1}') events)"
  printf '  %-24s %14s instructions\n' "otf2_bare_read" "$bare"
  for name in prv tau dump; do
    n=$(instructions "$WORK"/cg-$name-*)
    printf '  %-24s %14s instructions = %sx the bare read\n' "$name" "$n" "$(ratio "$n" "$bare")"
  done
}

for trace in $TRACES; do bench_trace "$trace"; done
