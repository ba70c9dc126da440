#!/usr/bin/env bash
# Python bindings: time of mtf.open(TRACE).events() (a pandas DataFrame of every event)
# against `mtf info TRACE` on the 14 M-event wavefront, then on its .mtf archive, and the
# memory the call takes against the DataFrame's own size. Goals: at most 3x the time on
# the OTF2, 1.5x on the archive; at most 1.5x the memory.
# Usage: bench/python/bench_events.sh [BUILD_DIR]   (default: build, configured with
# -DMTF_PYTHON=ON). RUNS (default 3) runs each, alternately; the best of each is compared.
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/mtf-bench-python}
PY=/usr/bin/python3  # Debian's: sees python3-numpy and python3-pandas
[[ -x $BUILD/mtf && -d $BUILD/python/mtf ]] || { echo "build mtf with -DMTF_PYTHON=ON first" >&2; exit 1; }

mkdir -p "$WORK"
TRACE=$WORK/wavefront.otf2
if [[ ! -f $TRACE ]]; then
  echo "generating $TRACE ..."
  "$BUILD/mtf-gen" wavefront --ranks 16 --iterations 249 --inner 160 -o "$TRACE" >/dev/null
fi

# measure TRACE GOAL : RUNS alternate runs of `mtf info TRACE` and events(); prints the best
# of each and their ratios (CPU is not measured: events() runs inside Python).
measure() {
  local trace=$1 goal=$2 best_info="" best_py="" best_growth="" best_df="" info py df_bytes growth rows
  echo "$trace:"
  for ((i = 0; i < RUNS; i++)); do
    info=$( { /usr/bin/time -f "%e" "$BUILD/mtf" -q info "$trace" >/dev/null; } 2>&1 | tail -1)
    read -r py df_bytes growth rows < <(PYTHONPATH=$BUILD/python $PY "$HERE/bench_events.py" "$trace")
    echo "  run $i: mtf info ${info}s, events() ${py}s, DataFrame $df_bytes B, RSS growth $growth B, $rows rows"
    if [[ -z $best_info ]] || (($(echo "$info < $best_info" | bc -l))); then best_info=$info; fi
    if [[ -z $best_py ]] || (($(echo "$py < $best_py" | bc -l))); then
      best_py=$py
      best_growth=$growth
      best_df=$df_bytes
    fi
  done
  echo "  best: mtf info ${best_info}s, events() ${best_py}s"
  echo "  time ratio events()/info: $(echo "scale=2; $best_py / $best_info" | bc -l) (goal <= $goal)"
  echo "  memory ratio RSS growth/DataFrame: $(echo "scale=2; $best_growth / $best_df" | bc -l) (goal <= 1.5)"
}

measure "$TRACE" 3
# The archive of the same trace (issue 30: events() <= 1.5x `mtf info` on the .mtf).
ARCHIVE=$WORK/wavefront.mtf
[[ -f $ARCHIVE ]] || "$BUILD/mtf" -q convert "$TRACE" -o "$ARCHIVE" >/dev/null
measure "$ARCHIVE" 1.5
