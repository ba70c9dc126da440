#!/bin/sh
# Table I for NLR on generated traces: makes wavefront traces with mtf-gen (into a
# temporary folder) and runs nlr_bench on them. Usage: bench/nlr/run.sh [BUILD_DIR]
set -eu
build=${1:-build}
gen="$build/mtf-gen"
bench="$build/bench/nlr/nlr_bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" wavefront -q --ranks 16 --iterations 249 --inner 160 -o "$tmp/wavefront-16x249x160.otf2"
"$gen" wavefront -q --ranks 64 --iterations 50 --inner 64 -o "$tmp/wavefront-64x50x64.otf2"
"$gen" wavefront -q --ranks 16 --iterations 100 --inner 40 --noise 0.2 -o "$tmp/wavefront-noise-16x100x40.otf2"
"$bench" "$tmp"/*.otf2
