#!/usr/bin/env bash
# The archive's non-column bytes on the real traces: every trace of ../shared/traces (when
# it sits beside the clone) and of tests/data, converted to .mtf by each given build's mtf;
# prints per trace and build the bytes `mtf stats --json` gives for definitions, structure
# (signatures, nodes, locations, annotations), index (+ header and trailer), their sum
# (everything but the value columns) and the whole file; then, with two builds, the
# geometric mean of the second build's non-column bytes over the first's.
# Usage: bench/corpus/bench_structure.sh [BUILD_DIR [BUILD_DIR2]]   (default: build)
#   e.g. bench/corpus/bench_structure.sh ../main/build build    (before, after)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILDS=("${@:-$ROOT/build}")
for b in "${BUILDS[@]}"; do
  [[ -x $b/mtf ]] || { echo "missing $b/mtf: build the target mtf_cli" >&2; exit 1; }
done
WORK=${WORK:-/tmp/mtf-bench-structure}
rm -rf "$WORK" && mkdir -p "$WORK"
ROOTS=()
[[ -d $ROOT/../shared/traces ]] && ROOTS+=("$(cd "$ROOT/../shared/traces" && pwd)")
ROOTS+=("$ROOT/tests/data")

# shellcheck source=bench/corpus/corpus_files.sh
source "$(dirname "$0")/corpus_files.sh"

# sizes MTF ARCHIVE : "definitions structure index non-column file"
sizes() {
  "$1" stats --json "$2" | python3 -c '
import json, sys
t = json.load(sys.stdin)["total"]
d, s, i = t["definition_bytes"], t["structure_bytes"], t["index_bytes"]
print(d, s, i, d + s + i, t["file_bytes"])'
}

printf '%-8s %-28s %-5s %8s %8s %8s %10s %10s\n' format trace build defs struct index non-column file
RESULTS=$WORK/results.txt
: >"$RESULTS"
while read -r format name dir; do
  line=()
  for i in "${!BUILDS[@]}"; do
    out=$WORK/$i.mtf
    if ! "${BUILDS[$i]}/mtf" -q convert "$(mtf_input "$dir" "$format")" -o "$out" --force \
      2>/dev/null; then
      printf '%-8s %-28s %-5s conversion failed\n' "$format" "$name" "$i"
      continue 2
    fi
    read -r d s x n f < <(sizes "${BUILDS[$i]}/mtf" "$out")
    printf '%-8s %-28s %-5s %8s %8s %8s %10s %10s\n' "$format" "$name" "$i" "$d" "$s" "$x" "$n" "$f"
    line+=("$n")
    rm -f "$out"
  done
  [[ ${#line[@]} -eq 2 ]] && echo "$format ${line[0]} ${line[1]}" >>"$RESULTS"
done < <(trace_list)
if [[ ${#BUILDS[@]} -eq 2 ]]; then
  echo
  awk '{ n[$1]++; s[$1] += log($3 / $2); n["all"]++; s["all"] += log($3 / $2) }
       END { for (f in n) printf "geometric mean of non-column bytes, build 1 / build 0, %-8s %.3f over %d traces\n",
                                 f, exp(s[f] / n[f]), n[f] }' "$RESULTS" | sort
fi
