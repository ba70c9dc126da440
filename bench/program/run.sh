#!/bin/sh
# mtf model (NLR per location + the program-wide merge) against mtf loops (NLR alone) on
# the same trace: wall time, CPU time and peak memory, median of RUNS runs each, runs
# interleaved so that the machine's load hits both alike. Default trace: the 1,024-rank
# wavefront, 5 x 160. Usage: bench/program/run.sh [BUILD_DIR] [RUNS]
set -eu
build=${1:-build}
runs=${2:-5}
mtf="$build/mtf"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace="$tmp/wavefront-1024x5x160.otf2"
"$build/mtf-gen" wavefront -q --ranks 1024 --iterations 5 --inner 160 -o "$trace"
i=0
while [ "$i" -lt "$runs" ]; do
  for cmd in loops model; do
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$mtf" -q "$cmd" "$trace" > /dev/null
    awk -v c="$cmd" '{ printf "%s %s %.2f %s\n", c, $1, $2 + $3, $4 }' "$tmp/t" >> "$tmp/all"
  done
  i=$((i + 1))
done
median() {  # command, column (2 wall s, 3 cpu s, 4 max RSS KB)
  awk -v c="$1" '$1 == c' "$tmp/all" | sort -n -k"$2" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'
}
echo "trace: wavefront 1024 ranks x 5 x 160 ($runs runs each, medians)"
printf '%-8s %10s %10s %12s\n' command wall-s cpu-s max-RSS-KB
for cmd in loops model; do
  printf '%-8s %10s %10s %12s\n' "$cmd" "$(median $cmd 2)" "$(median $cmd 3)" "$(median $cmd 4)"
done
awk -v lw="$(median loops 2)" -v mw="$(median model 2)" -v lc="$(median loops 3)" \
    -v mc="$(median model 3)" -v lm="$(median loops 4)" -v mm="$(median model 4)" \
    'BEGIN { printf "model/loops: wall %.2fx, cpu %.2fx, memory %.2fx (target <= 1.5x)\n", mw / lw, mc / lc, mm / lm }'
