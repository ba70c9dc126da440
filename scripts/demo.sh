#!/usr/bin/env bash
# Installs the dependencies, builds mtf, and runs the main job on the bundled sample:
# summarise the trace, convert it to the MTF archive and back, and show its loops.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMTF_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)" --target mtf_cli mtf-gen >/dev/null
SAMPLE=samples/wavefront-4x10/traces.otf2
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
set -x
build/mtf info "$SAMPLE"
build/mtf convert "$SAMPLE" -o "$OUT/sample.otf2"
