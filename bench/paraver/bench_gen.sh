#!/usr/bin/env bash
# Paraver read speed on a trace made by the project's generator: `mtf-gen wavefront -o x.prv`
# (>= 10 million records), then mtf_paraver_bench x.prv prints the read time as a ratio to
# `wc -l` on the same file and as records and events per second (CPU seconds).
# Usage: bench/paraver/bench_gen.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BUILD=${1:-build}
GEN=$BUILD/mtf-gen
BENCH=$BUILD/bench/paraver/mtf_paraver_bench
WORK=${WORK:-/tmp/mtf-bench-paraver}

for tool in "$GEN" "$BENCH"; do
  [[ -x $tool ]] || { echo "missing $tool: build the targets mtf-gen and mtf_paraver_bench" >&2; exit 1; }
done

mkdir -p "$WORK"
TRACE=$WORK/wavefront.prv
if [[ ! -f $TRACE ]]; then
  echo "generating $TRACE ..."
  "$GEN" wavefront --ranks 16 --iterations ${ITERATIONS:-249} --inner 160 -o "$TRACE" -q --force
fi
RECORDS=$(grep -c '^[1-4]:' "$TRACE")
echo "trace: $TRACE, $RECORDS records, $(du -h "$TRACE" | cut -f1)"
(( RECORDS >= 10000000 )) || echo "warning: fewer than 10 million records" >&2
"$BENCH" "$TRACE"
