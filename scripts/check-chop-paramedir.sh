#!/usr/bin/env bash
# Checks `mtf chop` output with BSC's paramedir (outside the test suite, like
# scripts/check-paramedir.sh): generated wavefront and halo runs with noise and a flushing
# pause are chopped to 2 iterations as Paraver (times kept and --shift-times); paramedir
# must report no "Error reading" line, its #Sends matrix must sum to the chop's messages
# (read back by mtf), and the chop must hold about 2/N of the events (within 25%; the chop's own count).
# paramedir: $PARAMEDIR (default /root/paraver/bin/paramedir); mtf: $MTF_BUILD (default build/).
# Usage: bash scripts/check-chop-paramedir.sh   (exit 0 only if every chop passes)
set -uo pipefail

NAME=check-chop-paramedir
# shellcheck source=scripts/paramedir/common.sh
source "$(dirname "$0")/paramedir/common.sh"
failures=0
printf '%-34s %9s %9s %9s %7s  %s\n' chop events expected '#Sends' errors result
check() {  # name, kernel options or a trace's path, iterations N, extra chop options
  local name=$1 kernel=$2 n=$3 extra=$4 out=$work/$1 input=$work/$1.in.otf2
  local total events expected sends messages errors result=ok
  if [[ -e $kernel ]]; then input=$kernel; else
    "$gen" $kernel --iterations "$n" --ranks 16 --noise 0.1 -o "$input" -q
  fi
  total=$("$mtf" -q info "$input" --json | jq .events)
  if ! "$mtf" chop "$input" --iterations 2 $extra -o "$out.prv" 2> "$out.chop.err"; then
    result="chop failed: $(head -1 "$out.chop.err")"
  fi
  # The events the chop wrote, from its summary line ("...: 7348 of 73564 events").
  events=$(sed -nE 's/^mtf: chopped .*: ([0-9]+) of [0-9]+ events$/\1/p' "$out.chop.err")
  messages=$(messages_of "$out.prv")
  expected=$((total * 2 / n))
  [[ $extra == *--with-init* ]] && expected=-  # the initialisation and the zone's first 2
  (cd "$work" && "$paramedir" "$out.prv" "$cfg" "$out.txt" > "$out.stdout" 2> "$out.stderr")
  errors=$(grep -c 'Error reading' "$out.stderr")
  sends=$(sends_in_matrix "$out.txt" 2> /dev/null || echo none)
  if [[ $result == ok ]]; then
    if [[ $errors != 0 ]]; then result="paramedir skipped records"
    elif [[ $sends != "$messages" ]]; then result="#Sends $sends != $messages messages"
    elif [[ $expected != - ]] && ((4 * events < 3 * expected || 4 * events > 5 * expected)); then result="not about 2/$n of the events"
    fi
  fi
  [[ $result == ok ]] || failures=$((failures + 1))
  printf '%-34s %9s %9s %9s %7s  %s\n' "$name" "$events" "$expected" "$sends" "$errors" "$result"
}
check wavefront-20 "wavefront --inner 8 --pause 8:20000" 20 ""
check wavefront-20-shifted "wavefront --inner 8 --pause 8:20000" 20 "--shift-times"
check halo-30 "halo --pause 12:5000" 30 ""
check halo-30-with-init "halo --pause 12:5000" 30 "--with-init"
check lulesh-5 "$(ls "$root"/tests/data/paraver/profet-lulesh/*.prv)" 5 ""
exit $((failures > 0))
