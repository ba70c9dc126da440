#!/usr/bin/env bash
# Checks mtf's Paraver output with BSC's own reader, paramedir (paraver-kernel), outside
# the test suite (CI cannot build paramedir). For every real trace of tests/data (OTF2,
# TAU, Paraver) and generated traces (mtf-gen kernels as OTF2, and converted to TAU): convert
# to Paraver, run paramedir with the communication-matrix configuration
# scripts/paramedir/comm_sends.cfg, fail on any "Error reading" line on its stderr, and
# compare the sum of the THREAD rows of the #Sends matrix with the trace's messages (its
# MpiSend + MpiIsend events, from `mtf info --json`).
#
# paramedir: $PARAMEDIR, default /root/paraver/bin/paramedir (build paraver-kernel as
# ../shared/formats/README.md says). mtf and mtf-gen: $MTF_BUILD (default build/).
# Usage: bash scripts/check-paramedir.sh   (exit 0 only if every trace passes)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
paramedir=${PARAMEDIR:-/root/paraver/bin/paramedir}
build=${MTF_BUILD:-$root/build}
mtf=$build/mtf
gen=$build/mtf-gen
cfg=$root/scripts/paramedir/comm_sends.cfg

if [[ ! -x $paramedir ]]; then
  echo "check-paramedir: paramedir not found at $paramedir; build paraver-kernel" \
    "(see ../shared/formats/README.md, 'Checking with BSC's paramedir') or set PARAMEDIR" >&2
  exit 2
fi
for tool in "$mtf" "$gen"; do
  if [[ ! -x $tool ]]; then
    echo "check-paramedir: $tool not found; build the mtf_cli and mtf-gen targets" >&2
    exit 2
  fi
done
command -v jq > /dev/null || { echo "check-paramedir: needs jq" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The messages of a trace: its send events.
messages_of() {
  "$mtf" -q info "$1" --json 2> /dev/null | jq '(.events_by_kind.MpiSend // 0) + (.events_by_kind.MpiIsend // 0)'
}

# Sum of the THREAD rows of paramedir's #Sends matrix (tab-separated text: a line of column
# labels, one row per thread named as in the .row file, an empty line, then Total, Average...).
sends_in_matrix() {
  awk -F'\t' 'NR == 1 { next } $0 == "" { exit } { for (i = 2; i <= NF; ++i) sum += $i }
               END { printf "%d\n", sum }' "$1"
}

failures=0
printf '%-36s %-10s %9s %9s %7s  %s\n' trace resources messages '#Sends' errors result
check() {  # name, input trace
  local name=$1 input=$2 out=$work/${1//\//_}
  local expected sends errors resources result=ok
  expected=$(messages_of "$input") || expected=?
  if ! "$mtf" -q convert "$input" -o "$out.prv" --force 2> "$out.convert.err"; then
    result="convert failed: $(head -1 "$out.convert.err")"
  fi
  resources=$(head -1 "$out.prv" | sed -E 's/^[^)]*\):[^:]*:([^:]*):.*/\1/')
  ((${#resources} <= 18)) || resources="${resources:0:15}..."
  (cd "$work" && "$paramedir" "$out.prv" "$cfg" "$out.txt" > "$out.stdout" 2> "$out.stderr")
  errors=$(grep -c 'Error reading' "$out.stderr")
  if [[ -s $out.txt ]]; then sends=$(sends_in_matrix "$out.txt"); else sends=none; fi
  if [[ $result == ok ]]; then
    if [[ $errors != 0 ]]; then result="paramedir skipped records: $(grep -m1 -A1 'Error reading' "$out.stderr" | tail -1)"
    elif [[ $sends != "$expected" ]]; then result="#Sends $sends != $expected messages"
    elif grep -q 'ERROR\|Cannot load' "$out.stderr" "$out.stdout"; then result="paramedir: $(grep -m1 'ERROR\|Cannot load' "$out.stderr" "$out.stdout")"
    fi
  fi
  [[ $result == ok ]] || failures=$((failures + 1))
  printf '%-36s %-10s %9s %9s %7s  %s\n' "$name" "$resources" "$expected" "$sends" "$errors" \
    "$result"
}

for dir in "$root"/tests/data/otf2/*/; do
  check "otf2/$(basename "$dir")" "$dir/traces.otf2"
done
for dir in "$root"/tests/data/tau/*/; do
  check "tau/$(basename "$dir")" "$dir"
done
for prv in "$root"/tests/data/paraver/*/*.prv; do
  check "paraver/$(basename "$(dirname "$prv")")" "$prv"
done
# Each kernel plain, and with its messages on sub-communicators and to itself on
# MPI_COMM_SELF (partners named by their rank in the communicator).
for spec in "ring 8" "wavefront 16" "halo 9" "butterfly 8" "master-worker 6" \
            "ring 8 --split-comms --self-messages" "wavefront 16 --split-comms --self-messages"; do
  read -r kernel ranks options <<< "$spec"
  name=$kernel-$ranks${options:+-comms}
  trace=$work/gen-$name.otf2
  # shellcheck disable=SC2086  # options holds several words
  "$gen" "$kernel" --ranks "$ranks" $options -o "$trace" > /dev/null 2>&1 || { echo "mtf-gen $spec failed" >&2; failures=$((failures + 1)); continue; }
  check "gen/$name (otf2)" "$trace"
  if "$mtf" -q convert "$trace" --to tau -o "$work/gen-$name.tau" --force 2> /dev/null; then
    check "gen/$name (tau)" "$work/gen-$name.tau"
  else
    echo "gen/$name: conversion to TAU failed" >&2
    failures=$((failures + 1))
  fi
done

if [[ $failures != 0 ]]; then
  echo "check-paramedir: $failures trace(s) failed" >&2
  exit 1
fi
echo "check-paramedir: every trace accepted by paramedir, #Sends = messages"
