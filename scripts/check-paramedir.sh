#!/usr/bin/env bash
# Checks mtf's Paraver output with BSC's own reader, paramedir (paraver-kernel), outside
# the test suite (CI cannot build paramedir). For every real trace of tests/data (OTF2,
# TAU, Paraver) and generated traces (mtf-gen kernels as OTF2, and converted to TAU): convert
# to Paraver, run paramedir with the communication-matrix configuration
# scripts/paramedir/comm_sends.cfg, fail on any "Error reading" line on its stderr, and
# compare the sum of the THREAD rows of the #Sends matrix with the trace's messages (its
# MpiSend + MpiIsend events, from `mtf info --json`), and the matrix itself, cell by cell
# (threads summed into their tasks' world ranks), with `mtf matrix --csv` of the same .prv
# (computed from mtf's program-wide model).
#
# paramedir: $PARAMEDIR, default /root/paraver/bin/paramedir (build paraver-kernel as
# ../shared/formats/README.md says). mtf and mtf-gen: $MTF_BUILD (default build/).
# Usage: bash scripts/check-paramedir.sh   (exit 0 only if every trace passes)
set -uo pipefail

NAME=check-paramedir
# shellcheck source=scripts/paramedir/common.sh
source "$(dirname "$0")/paramedir/common.sh"

# paramedir's #Sends matrix as sorted "sender,receiver,messages" lines: rows and columns are
# the threads in the order of the .prv header's applications "N(threads:node,...)", world
# rank = task - 1 (as tests/cli/message_matrix.cpp reads the records); threads of one task
# are summed.
paramedir_cells() {  # prv, matrix
  local tasks
  tasks=$(head -1 "$1" | sed -E 's/^#Paraver \([^)]*\)://' | cut -d: -f4- |
            grep -oE '[0-9]+\([^)]*\)' | sed -E 's/^[0-9]+\((.*)\)$/\1/' | paste -sd';')
  awk -F'\t' -v tasks="$tasks" '
    BEGIN { na = split(tasks, apps, ";"); row = 0
            for (a = 1; a <= na; ++a) { n = split(apps[a], t, ",")
              for (i = 1; i <= n; ++i) { split(t[i], f, ":"); for (k = 0; k < f[1]; ++k) rank[row++] = i - 1 } } }
    NR == 1 { next }
    $0 == "" { exit }
    { for (i = 2; i <= NF; ++i) if ($i != "" && $i + 0 > 0) cell[rank[NR - 2] "," rank[i - 2]] += $i }
    END { for (c in cell) printf "%s,%d\n", c, cell[c] }' "$2" | sort
}

# `mtf matrix --csv` as the same lines.
mtf_cells() {
  "$mtf" -q matrix --csv "$1" 2> /dev/null | tail -n +2 | cut -d, -f1-3 | sort
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
    elif ! diff <(paramedir_cells "$out.prv" "$out.txt") <(mtf_cells "$out.prv") > "$out.diff"; then
      result="matrix differs from mtf matrix in $(grep -c '^[<>]' "$out.diff") cell lines"
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
for dir in "$root"/tests/data/paraver/*/; do
  prv=$(find "$dir" -maxdepth 1 -name '*.prv' | head -1)
  [[ -n $prv ]] || prv=$(find "$dir" -maxdepth 1 -name '*.prv.gz' | head -1)  # gzipped only
  check "paraver/$(basename "$dir")" "$prv"
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
echo "check-paramedir: every trace accepted by paramedir, #Sends = messages, matrix = mtf matrix"
