#!/usr/bin/env bash
# Installs the dependencies, builds mtf, and runs the main job on the bundled sample
# (samples/wavefront-4x10: an LU-like wavefront, 4 ranks, 10 iterations, made by mtf-gen):
# summarise it, archive it as MTF, show the compaction, the loops and the communication
# patterns, then restore OTF2 from the archive and prove nothing was lost.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target mtf_cli mtf-gen >/dev/null
SAMPLE=samples/wavefront-4x10/traces.otf2
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
step() { printf '\n$ %s\n' "$*"; "$@"; }
step build/mtf info "$SAMPLE"
step build/mtf convert "$SAMPLE" -o "$OUT/sample.mtf"
step build/mtf validate "$OUT/sample.mtf"
step build/mtf stats "$OUT/sample.mtf"
step build/mtf loops "$OUT/sample.mtf" --location 0
step build/mtf model "$OUT/sample.mtf"
step build/mtf patterns "$SAMPLE" --top 3
step build/mtf convert "$OUT/sample.mtf" -o "$OUT/restored.otf2"
printf '\n$ otf2-print (original) vs otf2-print (restored from MTF)\n'
if diff <(otf2-print "$SAMPLE" | tail -n +4) <(otf2-print "$OUT/restored.otf2" | tail -n +4) >/dev/null; then
  echo "identical: $(otf2-print "$SAMPLE" | tail -n +6 | grep -c '^[A-Z]') events, every field"
else
  echo "DIFFERENT"; exit 1
fi
printf '\nsizes: OTF2 %s bytes, MTF %s bytes\n' "$(du -sb "$(dirname "$SAMPLE")" | cut -f1)" "$(stat -c %s "$OUT/sample.mtf")"
