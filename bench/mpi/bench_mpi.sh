#!/usr/bin/env bash
# mtf-mpi on this machine, against the serial `mtf convert` measured in the same run:
#   wall time        medians of RUNS (default 3) runs, N = 1, 2, 4, 8 processes
#                    (--oversubscribe: the machine has 2 cores, so N > 2 shares them)
#   peak memory      the largest process's peak RSS (mtf-mpi --report), against the
#                    serial peak (/usr/bin/time) and the issue's bound serial/N + 30 MB
#   bytes moved      bytes sent between processes (structures, models, index, reports)
#   merge share      the merge phase (structure and program-model reductions) and the
#                    parallel write, as shares of the wall time
#   instructions     valgrind's callgrind over every process (mpirun itself left out),
#                    N = 1 and 4 (INSTRUCTION_NS to choose), against the serial conversion
# Default trace: the wavefront of 1,024 ranks x 5 x 160 (22.6 M events; RANKS, ITERATIONS,
# INNER change it). The figures feed the model of MODEL.md.
# Usage: bench/mpi/bench_mpi.sh [BUILD_DIR]   (default: build; needs -DMTF_MPI=ON)
set -euo pipefail
BENCH=mpi
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
MPI_BIN=$BUILD/mtf-mpi
[[ -x $MPI_BIN ]] || { echo "missing $MPI_BIN: configure with -DMTF_MPI=ON" >&2; exit 1; }
MPIRUN=(mpirun --oversubscribe --bind-to none)
[[ $(id -u) == 0 ]] && MPIRUN+=(--allow-run-as-root)
RANKS=${RANKS:-1024} ITERATIONS=${ITERATIONS:-5} INNER=${INNER:-160}
TRACE=$WORK/wavefront-${RANKS}x${ITERATIONS}x${INNER}.otf2
[[ -f $TRACE ]] || "$GEN" wavefront -q --ranks "$RANKS" --iterations "$ITERATIONS" \
  --inner "$INNER" -o "$TRACE" >/dev/null

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
seconds() {  # seconds COMMAND...: wall seconds of one run
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}'
}
serial() { "$MTF" -q convert "$TRACE" -o "$WORK/serial.mtf" --force; }
parallel() {  # parallel N [extra options]
  local n=$1 && shift
  rm -f "$WORK/parallel.mtf"
  "${MPIRUN[@]}" -np "$n" "$MPI_BIN" -q convert "$TRACE" -o "$WORK/parallel.mtf" "$@"
}

events=$("$BARE" "$TRACE" | awk '{print $1}')
echo "trace: wavefront $RANKS ranks x $ITERATIONS x $INNER ($events events), $(nproc) cores"
# Wall times, interleaved so that the machine's load hits every N alike.
declare -A times
for ((run = 0; run < RUNS; run++)); do
  times[bare]+="$(seconds "$BARE" "$TRACE") "
  times[serial]+="$(seconds serial) "
  for n in 1 2 4 8; do times[$n]+="$(seconds parallel "$n") "; done
done
med() { tr ' ' '\n' <<<"${times[$1]}" | grep . | median; }
serial_s=$(med serial)
serial_kb=$(/usr/bin/time -f %M "$MTF" -q convert "$TRACE" -o "$WORK/serial.mtf" --force 2>&1 >/dev/null | tail -1)
printf "  %-24s %8s s\n" "bare OTF2 read" "$(med bare)"
printf "  %-24s %8s s  (%sx the bare read), peak %d MB\n" "mtf convert (serial)" "$serial_s" \
  "$(ratio "$serial_s" "$(med bare)")" $((serial_kb / 1024))
serial_cpu=$(/usr/bin/time -f "%U %S" "$MTF" -q convert "$TRACE" -o "$WORK/serial.mtf" --force 2>&1 >/dev/null |
  tail -1 | awk '{printf "%.2f", $1 + $2}')
echo "  serial CPU time (all threads): $serial_cpu s"
printf "\n  %2s %8s %8s %8s %10s %10s %10s %9s %9s\n" N "wall s" "vs ser." "CPU s" "peak MB" \
  "bound MB" "sent kB" "merge %" "write %"
for n in 1 2 4 8; do
  report=$(parallel "$n" --report 2>&1 | grep 'report:')
  peak=$(grep -o 'peak_kb=[0-9]*' <<<"$report" | cut -d= -f2 | sort -n | tail -1)
  sent=$(grep -o 'sent_bytes=[0-9]*' <<<"$report" | cut -d= -f2 | paste -sd+ | bc)
  wall_ms=$(grep -o 'local_ms=[0-9]*\|merge_ms=[0-9]*\|write_ms=[0-9]*' <<<"$report" |
    head -3 | cut -d= -f2 | paste -sd+ | bc)
  merge=$(grep 'process=0 ' <<<"$report" | grep -o 'merge_ms=[0-9]*' | cut -d= -f2)
  write=$(grep 'process=0 ' <<<"$report" | grep -o 'write_ms=[0-9]*' | cut -d= -f2)
  cpu=$(grep -o 'cpu_ms=[0-9]*' <<<"$report" | cut -d= -f2 | paste -sd+ | bc)
  wall=$(med "$n")
  printf "  %2d %8s %8s %8s %10d %10d %10d %9s %9s\n" "$n" "$wall" "$(ratio "$wall" "$serial_s")" \
    "$(awk -v c="$cpu" 'BEGIN {printf "%.2f", c / 1000}')" \
    $((peak / 1024)) $((serial_kb / 1024 / n + 30)) $((sent / 1024)) \
    "$(awk -v a="$merge" -v b="$wall_ms" 'BEGIN {printf "%.1f", 100 * a / b}')" \
    "$(awk -v a="$write" -v b="$wall_ms" 'BEGIN {printf "%.1f", 100 * a / b}')"
done
"$MTF" dump "$WORK/serial.mtf" | cmp -s - <("$MTF" dump "$WORK/parallel.mtf") &&
  echo "  (mtf dump of the last N=8 archive equals the serial one's)"

# Instructions of every process (callgrind sums every thread of a process).
if [[ ${INSTRUCTION_NS-1 4} != "" ]] && command -v valgrind >/dev/null; then
  rm -f "$WORK"/cg-*
  valgrind --tool=callgrind --callgrind-out-file="$WORK/cg-serial" "$MTF" -q convert "$TRACE" \
    -o "$WORK/serial.mtf" --force >/dev/null 2>&1
  base=$(instructions "$WORK/cg-serial")
  printf "\n  %-28s %16s instructions\n" "mtf convert (serial)" "$base"
  for n in ${INSTRUCTION_NS-1 4}; do
    rm -f "$WORK/parallel.mtf"
    "${MPIRUN[@]}" -np "$n" valgrind --tool=callgrind --callgrind-out-file="$WORK/cg-np$n.%p" \
      "$MPI_BIN" -q convert "$TRACE" -o "$WORK/parallel.mtf" >/dev/null 2>&1
    total=$(instructions "$WORK"/cg-np"$n".*)
    printf "  %-28s %16s instructions = %sx the serial\n" "mtf-mpi, N = $n, all processes" \
      "$total" "$(ratio "$total" "$base")"
  done
fi
