#!/usr/bin/env bash
# Compaction benchmark on the generated wavefront trace (16 ranks, 249 iterations, 160
# inner iterations, ~14 million events). Every baseline is measured in the same run:
#   size   .mtf archive vs the OTF2 archive tarred and compressed by zstd -19, gzip -9, xz -9
#          (goal: .mtf <= 0.5x zstd -19, stretch 0.35x)
#   speed  `mtf convert X.otf2 X.mtf` vs otf2_bare_read on the same trace, once (goal <= 1.5x;
#          bench_speed.sh measures it best of several runs, in wall and CPU time)
#   memory peak RSS of the conversion with 2490 iterations vs 249 (goal <= 1.5x; streaming)
#   structure  DAG nodes with 249 and 2490 iterations (must be equal)
# Usage: bench/compaction/bench_size.sh [BUILD_DIR]   (default: build)
#   SKIP_LARGE=1  skips the 2490-iteration trace (memory and structure figures)
set -euo pipefail

BENCH=compaction
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"

generate() {  # generate ITERATIONS -> prints the anchor path
  local trace=$WORK/wavefront-$1.otf2
  if [[ ! -f $trace ]]; then
    "$GEN" wavefront --ranks 16 --iterations "$1" --inner 160 -o "$trace" >/dev/null
  fi
  echo "$trace"
}

# Runs a command under /usr/bin/time -v; sets WALL (seconds) and RSS (kB).
measure() {
  local log=$WORK/time.log
  /usr/bin/time -v "$@" >/dev/null 2>"$log"
  WALL=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0;
            for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$log")
  RSS=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
}

ratio() { echo "scale=3; $1 / $2" | bc -l; }

# The OTF2 archive: anchor X.otf2, X.def and the directory X/.
archive_members() {
  local anchor=$1 base=${1%.otf2}
  echo "$(basename "$anchor")"
  [[ -e $base.def ]] && echo "$(basename "$base").def"
  [[ -d $base ]] && echo "$(basename "$base")"
  return 0
}

TRACE=$(generate 249)
EVENTS=$("$BARE" "$TRACE" | awk '{print $1}')
echo "trace: $TRACE ($EVENTS events)"

# --- size ---
mapfile -t MEMBERS < <(archive_members "$TRACE")
# Compressed sizes of the (deterministic) generated archive are cached in $WORK/*.size:
# zstd -19 and xz -9 of 200 MB take minutes.
compressed_size() {  # NAME COMMAND... : bytes of `tar | COMMAND`
  local cache=$WORK/wavefront-249.$1.size
  shift
  if [[ ! -s $cache ]]; then
    (cd "$(dirname "$TRACE")" && tar cf - "${MEMBERS[@]}" | "$@" | wc -c) > "$cache"
  fi
  cat "$cache"
}
OTF2_BYTES=$(compressed_size tar cat)
ZSTD_BYTES=$(compressed_size zstd zstd -19 -T1 -q -c)
GZIP_BYTES=$(compressed_size gzip gzip -9 -c)
XZ_BYTES=$(compressed_size xz xz -9 -T1 -c)

MTF_FILE=$WORK/wavefront-249.mtf
rm -f "$MTF_FILE"
measure "$BARE" "$TRACE"
BARE_WALL=$WALL
measure "$MTF" -q convert "$TRACE" -o "$MTF_FILE" --force
CONVERT_WALL=$WALL
RSS_249=$RSS
MTF_BYTES=$(stat -c %s "$MTF_FILE")

echo
echo "size (bytes; ratio = .mtf / baseline)"
printf "  %-24s %12d\n" "OTF2 archive (tar)" "$OTF2_BYTES"
printf "  %-24s %12d   mtf/this = %s\n" "tar | zstd -19" "$ZSTD_BYTES" "$(ratio "$MTF_BYTES" "$ZSTD_BYTES")"
printf "  %-24s %12d   mtf/this = %s\n" "tar | gzip -9" "$GZIP_BYTES" "$(ratio "$MTF_BYTES" "$GZIP_BYTES")"
printf "  %-24s %12d   mtf/this = %s\n" "tar | xz -9" "$XZ_BYTES" "$(ratio "$MTF_BYTES" "$XZ_BYTES")"
printf "  %-24s %12d   mtf/otf2 = %s\n" ".mtf" "$MTF_BYTES" "$(ratio "$MTF_BYTES" "$OTF2_BYTES")"
"$MTF" stats --json "$MTF_FILE" > "$WORK/stats-249.json"
python3 - "$WORK/stats-249.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["total"]
print(f"  .mtf parts: structure {t['structure_bytes']}, values {t['value_bytes']}, "
      f"definitions {t['definition_bytes']}, index {t['index_bytes']}")
print(f"  DAG: {t['dag_nodes']} nodes, {t['dag_edges']} edges for {t['tree_nodes']} tree nodes; "
      f"compaction rate {t['compaction_rate']:.3f}%")
PY

echo
echo "speed (wall seconds)"
printf "  %-24s %8s\n" "otf2_bare_read" "$BARE_WALL"
printf "  %-24s %8s   ratio = %s\n" "mtf convert -> .mtf" "$CONVERT_WALL" "$(ratio "$CONVERT_WALL" "$BARE_WALL")"

if [[ ${SKIP_LARGE:-0} == 1 ]]; then
  echo; echo "(SKIP_LARGE=1: memory and structure growth not measured)"
  exit 0
fi
LARGE=$(generate 2490)
LARGE_MTF=$WORK/wavefront-2490.mtf
rm -f "$LARGE_MTF"
measure "$MTF" -q convert "$LARGE" -o "$LARGE_MTF" --force
RSS_2490=$RSS
"$MTF" stats --json "$LARGE_MTF" > "$WORK/stats-2490.json"
echo
echo "memory (peak RSS, kB)"
printf "  %-24s %10d\n" "249 iterations" "$RSS_249"
printf "  %-24s %10d   ratio = %s\n" "2490 iterations" "$RSS_2490" "$(ratio "$RSS_2490" "$RSS_249")"
python3 - "$WORK/stats-249.json" "$WORK/stats-2490.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["total"] for p in sys.argv[1:3])
print(f"structure: DAG nodes {a['dag_nodes']} (249 it.) vs {b['dag_nodes']} (2490 it.); "
      f"edges {a['dag_edges']} vs {b['dag_edges']}; events {a['events']} vs {b['events']}")
PY
