# Shared set-up of the benchmarks (sourced): the tools of BUILD_DIR ($1, default build), a
# check that they are built, the work folder (WORK, default /tmp/mtf-bench-$BENCH, set
# BENCH before sourcing), `wavefront_trace ITERATIONS INNER`, which prints the path of
# the 16-rank OTF2 wavefront of that size, generated once in WORK, `instructions FILE...`,
# the instructions of callgrind profiles' totals, `run_time COMMAND...` and `min`.
BUILD=${1:-build}
GEN=$BUILD/mtf-gen
MTF=$BUILD/mtf
BARE=$BUILD/bench/otf2/otf2_bare_read
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/mtf-bench-${BENCH:-common}}
for tool in "$GEN" "$MTF" "$BARE"; do
  [[ -x $tool ]] || { echo "missing $tool: build the targets mtf_cli, mtf-gen, otf2_bare_read" >&2; exit 1; }
done
mkdir -p "$WORK"

wavefront_trace() {
  local trace=$WORK/wavefront-$1x$2.otf2
  [[ -f $trace ]] || "$GEN" wavefront --ranks 16 --iterations "$1" --inner "$2" -o "$trace" >/dev/null
  echo "$trace"
}

# bench_trace CHOICE ITERATIONS INNER : the path of the OTF2 trace to measure: CHOICE if it
# is a path; the 1,024-rank wavefront (32 x 32, 10 iterations of 8 inner steps, 2.7 M
# events) if it is "ranks1024"; if empty, the 16-rank wavefront of ITERATIONS x INNER
# (WORK/wavefront-ITERATIONS.otf2). Generated traces are made once in WORK.
bench_trace() {
  local trace
  case $1 in
    "") trace=$WORK/wavefront-$2.otf2
        [[ -f $trace ]] || "$GEN" wavefront --ranks 16 --iterations "$2" --inner "$3" -o "$trace" >/dev/null ;;
    ranks1024) trace=$WORK/wavefront-1024-ranks.otf2
        [[ -f $trace ]] || "$GEN" wavefront --ranks 1024 --iterations 10 --inner 8 -o "$trace" >/dev/null ;;
    *) trace=$1
       [[ -f $trace ]] || { echo "no trace $trace" >&2; exit 1; } ;;
  esac
  echo "$trace"
}

# instructions FILE... : the instructions of the profiles' totals
instructions() {
  local total=0 f n
  for f in "$@"; do
    n=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    total=$((total + ${n:-0}))
  done
  echo "$total"
}

# run_time COMMAND... : "WALL CPU MAXRSS_KB" of one run (seconds; CPU = user + system).
run_time() {
  /usr/bin/time -o "$WORK/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$WORK/time.txt"
}
# min BEST VALUE : the smaller of the two (BEST may be empty: none yet).
min() { awk -v a="$1" -v b="$2" 'BEGIN {print (a == "" || b < a) ? b : a}'; }
