#!/usr/bin/env bash
# Archive size on the real traces: every trace of ../shared/traces (when it sits beside the
# clone) and of tests/data, converted to .mtf, against `tar | zstd -19` and `tar | xz -9` of
# the trace's own files (the files mtf reads: no licenses, no Score-P config or profile, no
# second copy such as a .prv.gz beside its .prv or a merged tau.trc beside per-thread files).
# A gzipped file (.prv.gz) counts as its content (raw bytes, zstd and xz of the plain file).
# Prints per trace: raw bytes, .mtf bytes, zstd -19 bytes, xz -9 bytes, .mtf/zstd, .mtf/xz;
# then the geometric mean of .mtf/zstd per format and overall, and how many traces are above 1.
# Usage: bench/corpus/bench_corpus.sh [BUILD_DIR] [TRACE_DIR...]
#   (default: build; ../shared/traces and tests/data)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
shift || true
MTF=$BUILD/mtf
[[ -x $MTF ]] || { echo "missing $MTF: build the target mtf_cli" >&2; exit 1; }
for tool in zstd xz tar gzip; do
  command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
WORK=${WORK:-/tmp/mtf-bench-corpus}
rm -rf "$WORK" && mkdir -p "$WORK"

if [[ $# -gt 0 ]]; then
  ROOTS=("$@")
else
  ROOTS=()
  [[ -d $ROOT/../shared/traces ]] && ROOTS+=("$(cd "$ROOT/../shared/traces" && pwd)")
  ROOTS+=("$ROOT/tests/data")
fi

# shellcheck source=bench/corpus/corpus_files.sh
source "$(dirname "$0")/corpus_files.sh"

printf '%-8s %-28s %12s %10s %10s %10s %8s %8s\n' format trace raw mtf zstd-19 xz-9 mtf/zstd mtf/xz
RESULTS=$WORK/results.txt
: >"$RESULTS"
while read -r format name dir; do
  mapfile -t files < <(trace_files "$dir" "$format")
  [[ ${#files[@]} -gt 0 ]] || continue
  plain_files "$dir" "$WORK/plain"  # sets base; a gzipped file counts as its content
  raw=$(cd "$base" && cat "${files[@]}" | wc -c)
  zst=$(cd "$base" && tar cf - "${files[@]}" | zstd -19 -q -c | wc -c)
  xzb=$(cd "$base" && tar cf - "${files[@]}" | xz -9 -c | wc -c)
  out=$WORK/$format-$name.mtf
  if ! "$MTF" -q convert "$(mtf_input "$dir" "$format")" -o "$out" --force 2>"$WORK/err.txt"; then
    printf '%-8s %-28s %12s  conversion failed: %s\n' "$format" "$name" "$raw" "$(head -1 "$WORK/err.txt")"
    continue
  fi
  mtfb=$(wc -c <"$out")
  rz=$(awk -v a="$mtfb" -v b="$zst" 'BEGIN {printf "%.3f", a / b}')
  rx=$(awk -v a="$mtfb" -v b="$xzb" 'BEGIN {printf "%.3f", a / b}')
  printf '%-8s %-28s %12s %10s %10s %10s %8s %8s\n' "$format" "$name" "$raw" "$mtfb" "$zst" "$xzb" "$rz" "$rx"
  echo "$format $rz" >>"$RESULTS"
  rm -f "$out"
done < <(trace_list)

echo
awk '{ n[$1]++; s[$1] += log($2); n["all"]++; s["all"] += log($2);
       if ($2 > 1) { above[$1]++; above["all"]++ } }
     END { for (f in n) printf "geometric mean .mtf/zstd-19 %-8s %.3f over %d traces, %d above 1.0\n",
                               f, exp(s[f] / n[f]), n[f], above[f] + 0 }' "$RESULTS" | sort
