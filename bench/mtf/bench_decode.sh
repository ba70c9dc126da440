#!/usr/bin/env bash
# Decoding the .mtf archive (issue 30): `mtf info T.mtf` (decodes every event) against the
# bare OTF2 read of the same trace (bench/otf2/otf2_bare_read) and against `mtf info T.otf2`.
#   1. Times on the 14.2 M-event wavefront (16 ranks, 249 x 160): the three programs run
#      in turn, RUNS times (default 3); medians of CPU (user + system) and wall, and
#      their ratios. Goals: CPU <= 0.5x the bare read, wall below `mtf info` on the OTF2.
#   2. Instructions (callgrind, every thread), robust to a loaded machine, on a smaller
#      wavefront (16 x ITERATIONS (default 50) x 40) and on
#      ../shared/traces/otf2/casita-jacobi-gpu if present.
# Usage: bench/mtf/bench_decode.sh [BUILD_DIR]   (default: build). SKIP_TIMES=1 skips 1.
set -euo pipefail

BENCH=decode
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
SHARED=$(dirname "$0")/../../../shared/traces/otf2/casita-jacobi-gpu/traces.otf2

# to_mtf OTF2 : the .mtf of OTF2 (converted once), its path
to_mtf() {
  local out=$WORK/$(basename "$(dirname "$1")")-$(basename "$1" .otf2).mtf
  [[ -f $out ]] || "$MTF" -q convert "$1" -o "$out" >/dev/null
  echo "$out"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

if [[ -z ${SKIP_TIMES:-} ]]; then
  TRACE=$(wavefront_trace 249 160)
  ARCHIVE=$(to_mtf "$TRACE")
  : >"$WORK/times.txt"
  for ((i = 0; i < RUNS; i++)); do
    read -r w c _ < <(run_time "$BARE" "$TRACE") && echo "bare $w $c" >>"$WORK/times.txt"
    read -r w c _ < <(run_time "$MTF" -q info "$TRACE") && echo "otf2 $w $c" >>"$WORK/times.txt"
    read -r w c _ < <(run_time "$MTF" -q info "$ARCHIVE") && echo "mtf $w $c" >>"$WORK/times.txt"
  done
  med() { awk -v k="$1" -v f="$2" '$1 == k {print $f}' "$WORK/times.txt" | median; }
  echo "wavefront 249 x 160 ($TRACE), medians of $RUNS runs:"
  for k in bare otf2 mtf; do printf '  %-5s wall %.2f s, cpu %.2f s\n' "$k" "$(med $k 2)" "$(med $k 3)"; done
  echo "  mtf info .mtf / bare read: cpu $(ratio "$(med mtf 3)" "$(med bare 3)") (goal <= 0.5)," \
    "wall $(ratio "$(med mtf 2)" "$(med bare 2)")"
  echo "  mtf info .mtf / mtf info .otf2: wall $(ratio "$(med mtf 2)" "$(med otf2 2)") (goal < 1)," \
    "cpu $(ratio "$(med mtf 3)" "$(med otf2 3)")"
fi

callgrind() {
  local out=$1 && shift
  rm -f "$out"*
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out" "$@" \
    >/dev/null 2>&1
}
TRACES=$(wavefront_trace "${ITERATIONS:-50}" 40)
[[ -f $SHARED ]] && TRACES="$TRACES $SHARED"
for trace in $TRACES; do
  archive=$(to_mtf "$trace")
  callgrind "$WORK/cg-bare" "$BARE" "$trace"
  callgrind "$WORK/cg-mtf" "$MTF" -q info "$archive"
  bare=$(instructions "$WORK"/cg-bare*)
  mtf=$(instructions "$WORK"/cg-mtf*)
  echo "instructions, $trace: bare read $bare, mtf info .mtf $mtf ($(ratio "$mtf" "$bare")x)"
done
