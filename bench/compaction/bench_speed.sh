#!/usr/bin/env bash
# Speed of OTF2 -> .mtf on the generated wavefront trace (16 ranks, 249 iterations, 160
# inner iterations, ~14 million events), against the bare OTF2 read of the same trace
# (bench/otf2/otf2_bare_read), both measured in this run.
#   wall  elapsed seconds (issue 30's goal: convert <= 1.0x the bare read; cpu <= 1.5x)
# A second baseline, `otf2_bare_read --no-mappings`, is measured as well: the library then
# skips mapping tables and clock offsets, as mtf's reader does for locations that have
# none (generated traces have none); the ratio against it is printed too.
# RUNS rounds (default 5) run the four commands one after the other (paired runs); the
# medians count (issue 30).
# `--no-model` (no program-wide model stored, src/program) is measured as well.
#   cpu   user + system seconds (the conversion runs four threads: reading, compaction,
#         NLR, and the value columns' coding and deflate)
# TRACE=PATH measures another OTF2 trace instead (issue 30 reports the largest real one,
# ../shared/traces/otf2/casita-jacobi-gpu/traces.otf2); TRACE=ranks1024 the 1,024-rank
# wavefront (32 x 32 ranks, 10 iterations of 8 inner steps: 2.7 M events), generated once.
# Usage: bench/compaction/bench_speed.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=compaction
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
RUNS=${RUNS:-5}
TRACE=$(bench_trace "${TRACE:-}" 249 160)
OUT=$WORK/$(basename "$(dirname "$TRACE")")-$(basename "$TRACE" .otf2)-speed.mtf

# median VALUE... : the median (the mean of the middle two for an even count)
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
declare -a BARE_W BARE_C NOMAP_W NOMAP_C CONV_W CONV_C NOMODEL_W NOMODEL_C
for ((i = 1; i <= RUNS; i++)); do
  read -r w c _ < <(run_time "$BARE" "$TRACE") && BARE_W+=("$w") && BARE_C+=("$c")
  read -r w c _ < <(run_time "$BARE" --no-mappings "$TRACE") && NOMAP_W+=("$w") && NOMAP_C+=("$c")
  read -r w c _ < <(run_time "$MTF" -q convert "$TRACE" -o "$OUT" --force --no-model)
  NOMODEL_W+=("$w") && NOMODEL_C+=("$c")
  read -r w c _ < <(run_time "$MTF" -q convert "$TRACE" -o "$OUT" --force)
  CONV_W+=("$w") && CONV_C+=("$c")
done
BARE_WALL=$(median "${BARE_W[@]}") BARE_CPU=$(median "${BARE_C[@]}")
NOMAP_WALL=$(median "${NOMAP_W[@]}") NOMAP_CPU=$(median "${NOMAP_C[@]}")
CONV_WALL=$(median "${CONV_W[@]}") CONV_CPU=$(median "${CONV_C[@]}")
NOMODEL_WALL=$(median "${NOMODEL_W[@]}") NOMODEL_CPU=$(median "${NOMODEL_C[@]}")
ratio() { echo "scale=2; $1 / $2" | bc -l; }
echo "trace: $TRACE ($("$BARE" "$TRACE" | awk '{print $1}') events); medians of $RUNS paired runs"
printf "  %-22s wall %6s s   cpu %6s s\n" "otf2_bare_read" "$BARE_WALL" "$BARE_CPU"
printf "  %-22s wall %6s s   cpu %6s s\n" "  --no-mappings" "$NOMAP_WALL" "$NOMAP_CPU"
printf "  %-22s wall %6s s   cpu %6s s\n" "mtf convert -> .mtf" "$CONV_WALL" "$CONV_CPU"
printf "  %-22s wall %6s s   cpu %6s s\n" "  --no-model" "$NOMODEL_WALL" "$NOMODEL_CPU"
printf "  ratio (convert / bare)  wall %6s     cpu %6s    (goal: wall <= 1.0, cpu <= 1.5)\n" \
  "$(ratio "$CONV_WALL" "$BARE_WALL")" "$(ratio "$CONV_CPU" "$BARE_CPU")"
printf "  ratio (convert --no-model / bare)  wall %6s     cpu %6s\n" \
  "$(ratio "$NOMODEL_WALL" "$BARE_WALL")" "$(ratio "$NOMODEL_CPU" "$BARE_CPU")"
printf "  ratio (convert / bare --no-mappings)  wall %6s     cpu %6s\n" \
  "$(ratio "$CONV_WALL" "$NOMAP_WALL")" "$(ratio "$CONV_CPU" "$NOMAP_CPU")"
echo "  .mtf size: $(stat -c %s "$OUT") bytes"
