#!/usr/bin/env bash
# Python bindings: time of mtf.open(TRACE).events() (a pandas DataFrame of every event)
# against `mtf info TRACE` on the 14 M-event wavefront, and the memory the call takes
# against the DataFrame's own size. Goals: at most 3x the time, at most 1.5x the memory.
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

best_info=""
best_py=""
for ((i = 0; i < RUNS; i++)); do
  info=$( { /usr/bin/time -f "%e" "$BUILD/mtf" -q info "$TRACE" >/dev/null; } 2>&1 | tail -1)
  read -r py df_bytes growth rows < <(PYTHONPATH=$BUILD/python $PY "$HERE/bench_events.py" "$TRACE")
  echo "run $i: mtf info ${info}s, events() ${py}s, DataFrame $df_bytes B, RSS growth $growth B, $rows rows"
  if [[ -z $best_info ]] || (($(echo "$info < $best_info" | bc -l))); then best_info=$info; fi
  if [[ -z $best_py ]] || (($(echo "$py < $best_py" | bc -l))); then
    best_py=$py
    best_growth=$growth
    best_df=$df_bytes
  fi
done
echo "best: mtf info ${best_info}s, events() ${best_py}s"
echo "time ratio events()/info: $(echo "scale=2; $best_py / $best_info" | bc -l) (goal <= 3)"
echo "memory ratio RSS growth/DataFrame: $(echo "scale=2; $best_growth / $best_df" | bc -l) (goal <= 1.5)"
