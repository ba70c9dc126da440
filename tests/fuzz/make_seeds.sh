#!/usr/bin/env bash
# make_seeds.sh BUILD_DIR: regenerates the seed corpora under tests/fuzz/corpus/ from the
# project's generator (small kernels, 2 and 4 ranks, 1 iteration; every seed < 20 KB).
# Real traces are never copied into the corpus: scripts/fuzz.sh passes tests/data as extra
# read-only corpus directories at run time. Pattern-file seeds are written by hand.
set -euo pipefail
build=$(realpath "${1:-build}")
here=$(cd "$(dirname "$0")" && pwd)
gen=$build/mtf-gen mtf=$build/mtf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=$here/corpus
mkdir -p "$corpus"/{fuzz_paraver_prv,fuzz_tau,fuzz_mtf_binary,fuzz_mtf_xml}
keep() { [ "$(stat -c %s "$1")" -lt 20480 ] && cp "$1" "$2" || true; }
for k in ring halo butterfly master-worker wavefront; do
  for r in 2 4; do
    n=$k$r
    "$gen" "$k" --ranks "$r" --iterations 1 -o "$tmp/$n.prv" 2>/dev/null
    { cat "$tmp/$n.prv"; printf '\n@@PCF@@\n'; cat "$tmp/$n.pcf"; } > "$tmp/$n.prvpcf"
    keep "$tmp/$n.prvpcf" "$corpus/fuzz_paraver_prv/$n"
    "$gen" "$k" --ranks "$r" --iterations 1 -o "$tmp/$n.mtf" 2>/dev/null
    keep "$tmp/$n.mtf" "$corpus/fuzz_mtf_binary/$n"
    "$gen" "$k" --ranks "$r" --iterations 1 -o "$tmp/tau_$n" --to tau 2>/dev/null
    { cat "$tmp/tau_$n/events.0.edf"; printf '\n@@TRC@@\n'; cat "$tmp/tau_$n/tautrace.0.0.0.trc"; } \
      > "$tmp/$n.tau"
    keep "$tmp/$n.tau" "$corpus/fuzz_tau/$n"
  done
done
# Over 4096 events per location, so that time planes are Huffman-coded and sparse (columns.hpp).
"$gen" ring --ranks 2 --iterations 450 -o "$tmp/ring-huffman.mtf" 2>/dev/null
keep "$tmp/ring-huffman.mtf" "$corpus/fuzz_mtf_binary/ring2-coded-planes"
# The seeds of archive version 1 (v1-*) were made by mtf before column coding 2 and are
# kept as they are: they cover the reading of old archives.
# MTF XML of a whole generated run is > 20 KB: convert the first lines of a Paraver trace.
"$gen" ring --ranks 2 --iterations 1 -o "$tmp/ring.prv" 2>/dev/null
for lines in 6 12 25; do
  head -n "$lines" "$tmp/ring.prv" > "$tmp/cut$lines.prv"
  cp "$tmp/ring.pcf" "$tmp/cut$lines.pcf" && cp "$tmp/ring.row" "$tmp/cut$lines.row"
  "$mtf" convert "$tmp/cut$lines.prv" -o "$tmp/cut$lines.mtf.xml" --no-loops 2>/dev/null
  sed 's/^ *//' "$tmp/cut$lines.mtf.xml" > "$tmp/cut$lines.min.xml"
  keep "$tmp/cut$lines.min.xml" "$corpus/fuzz_mtf_xml/ring_head$lines"
  "$mtf" convert "$tmp/cut$lines.prv" -o "$tmp/cut$lines.mtf" 2>/dev/null
  keep "$tmp/cut$lines.mtf" "$corpus/fuzz_mtf_binary/ring_head$lines"
done
# Column chunks for fuzz_columns, coded by the encoder with that target's event shape, as
# v9-* (archive version 9: few and jitter-values come out range coded, coding 7, the others
# coding 5). The v8-* seeds (coding 6 where range coded) and those without a prefix
# (coding-2 chunks of an older encoder) are kept as they are, for the reading of old archives.
mkdir -p "$corpus/fuzz_columns" "$tmp/columns"
"${MAKE_COLUMN_SEEDS:-$build/tests/fuzz/make_column_seeds}" "$tmp/columns"
for seed in "$tmp"/columns/*; do cp "$seed" "$corpus/fuzz_columns/v9-$(basename "$seed")"; done
du -sh "$corpus"/*
