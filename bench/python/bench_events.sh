#!/usr/bin/env bash
# Python bindings: time of mtf.open(TRACE).events() (a pandas DataFrame of every event)
# against `mtf info TRACE` on the 14 M-event wavefront, then on its .mtf archive, and the
# memory the call takes against the DataFrame's own size. Goals: at most 3x the time on
# the OTF2, 1.5x on the archive; at most 1.5x the memory.
# Usage: bench/python/bench_events.sh [BUILD_DIR] [TRACE...]   (default: build, configured
# with -DMTF_PYTHON=ON; without TRACE the wavefront, generated, and its archive). RUNS
# (default 5) paired runs each, alternately: wall, the best and the median of each; CPU
# (user + system, every thread, for events() without the interpreter's start), the median
# of each, and the median page faults of the call. COLUMNS=time,kind measures
# events(columns=[...]) instead.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-5}
WORK=${WORK:-/tmp/mtf-bench-python}
PY=/usr/bin/python3  # Debian's: sees python3-numpy and python3-pandas
[[ -x $BUILD/mtf && -d $BUILD/python/mtf ]] || { echo "build mtf with -DMTF_PYTHON=ON first" >&2; exit 1; }

mkdir -p "$WORK"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# measure TRACE GOAL : RUNS alternate runs of `mtf info TRACE` and events(); prints the best
# wall of each, the median CPU of each, and their ratios.
measure() {
  local trace=$1 goal=$2 best_info="" best_py="" best_growth="" best_df="" info py df_bytes growth rows
  local info_cpu py_cpu faults infos=() pys=() faultss=() info_walls=() py_walls=()
  echo "$trace:"
  for ((i = 0; i < RUNS; i++)); do
    read -r info info_cpu < <({ /usr/bin/time -f "%e %U %S" "$BUILD/mtf" -q info "$trace" >/dev/null; } 2>&1 |
      tail -1 | awk '{print $1, $2 + $3}')
    read -r py df_bytes growth rows py_cpu faults < <(PYTHONPATH=$BUILD/python $PY "$HERE/bench_events.py" "$trace")
    echo "  run $i: mtf info ${info}s (CPU ${info_cpu}s), events() ${py}s (CPU ${py_cpu}s, $faults page faults), DataFrame $df_bytes B, RSS growth $growth B, $rows rows"
    infos+=("$info_cpu") pys+=("$py_cpu") faultss+=("$faults") info_walls+=("$info") py_walls+=("$py")
    if [[ -z $best_info ]] || (($(echo "$info < $best_info" | bc -l))); then best_info=$info; fi
    if [[ -z $best_py ]] || (($(echo "$py < $best_py" | bc -l))); then
      best_py=$py
      best_growth=$growth
      best_df=$df_bytes
    fi
  done
  local median_info median_py
  median_info=$(printf '%s\n' "${infos[@]}" | median)
  median_py=$(printf '%s\n' "${pys[@]}" | median)
  echo "  best wall: mtf info ${best_info}s, events() ${best_py}s; ratio $(echo "scale=2; $best_py / $best_info" | bc -l)"
  # events() on an archive reads its locations on two threads: wall and CPU part ways.
  local wall_info wall_py
  wall_info=$(printf '%s\n' "${info_walls[@]}" | median)
  wall_py=$(printf '%s\n' "${py_walls[@]}" | median)
  echo "  median wall: mtf info ${wall_info}s (whole process), events() ${wall_py}s (the call); ratio $(echo "scale=2; $wall_py / $wall_info" | bc -l)"
  echo "  median CPU: mtf info ${median_info}s, events() ${median_py}s ($(printf '%s\n' "${faultss[@]}" | median) page faults)"
  echo "  CPU ratio events()/info: $(echo "scale=2; $median_py / $median_info" | bc -l) (goal <= $goal)"
  echo "  memory ratio RSS growth/DataFrame: $(echo "scale=2; $best_growth / $best_df" | bc -l) (goal <= 1.5)"
}

if (($# > 1)); then
  for trace in "${@:2}"; do
    if [[ $trace == *.mtf ]]; then measure "$trace" 1.5; else measure "$trace" 3; fi
  done
  exit 0
fi
# No trace given: the 14.2 M-event wavefront, generated once into WORK.
TRACE=$WORK/wavefront.otf2
if [[ ! -f $TRACE ]]; then
  echo "generating $TRACE ..."
  "$BUILD/mtf-gen" wavefront --ranks 16 --iterations 249 --inner 160 -o "$TRACE" >/dev/null
fi
measure "$TRACE" 3
# The archive of the same trace (issue 30: events() <= 1.5x `mtf info` on the .mtf).
ARCHIVE=$WORK/wavefront.mtf
[[ -f $ARCHIVE ]] || "$BUILD/mtf" -q convert "$TRACE" -o "$ARCHIVE" >/dev/null
measure "$ARCHIVE" 1.5
