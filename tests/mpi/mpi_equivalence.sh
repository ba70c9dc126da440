#!/usr/bin/env bash
# mtf-mpi against the serial mtf on one trace, with N processes:
#   - `mtf dump` of `mpirun -np N mtf-mpi convert` equals that of `mtf convert`;
#   - `mtf validate` passes; a second run writes the same bytes; the reader written from
#     docs/mtf-format.md alone (tests/spec) decodes it to that same dump;
#   - the stored loops and program model print as the serial archive's do (the model also
#     when written without loops, by its own NLR);
#   - `mtf-mpi loops`, `model` and `stats` print what `mtf loops`, `model --recompute`
#     and `stats` print (stats: all but the structure's compressed bytes, whose DAG is
#     numbered in mtf-mpi's canonical order).
# Usage: mpi_equivalence.sh BUILD_DIR N TRACE
set -euo pipefail
BUILD=$1 N=$2 TRACE=$3
MTF=$BUILD/mtf
# shellcheck source=tests/mpi/common.sh
source "$(dirname "$0")/common.sh"
fail() { echo "FAIL ($N processes, $TRACE): $*" >&2; exit 1; }
same() {  # same WHAT FILE1 FILE2
  cmp -s "$2" "$3" || { diff "$2" "$3" | head -20 >&2; fail "$1 differs"; }
}

"$MTF" -q convert "$TRACE" -o "$WORK/serial.mtf"
"${MPI[@]}" convert "$TRACE" -o "$WORK/parallel.mtf"
"${MPI[@]}" convert "$TRACE" -o "$WORK/again.mtf"
"$MTF" validate "$WORK/parallel.mtf" >/dev/null || fail "mtf validate refuses the archive"
same "the archive of a second run" "$WORK/parallel.mtf" "$WORK/again.mtf"
"$MTF" dump "$WORK/serial.mtf" >"$WORK/serial.dump"
"$MTF" dump "$WORK/parallel.mtf" >"$WORK/parallel.dump"
[[ -s $WORK/serial.dump ]] || fail "empty dump"
same "mtf dump" "$WORK/serial.dump" "$WORK/parallel.dump"
# A reader written from docs/mtf-format.md alone decodes the archive to the same text.
/usr/bin/python3 "$(dirname "$0")/../spec/mtf_spec_reader.py" "$WORK/parallel.mtf" >"$WORK/spec.dump"
same "the specification reader's decoding" "$WORK/parallel.dump" "$WORK/spec.dump"
for cmd in loops model; do
  "$MTF" -q $cmd "$WORK/serial.mtf" >"$WORK/serial.$cmd"
  "$MTF" -q $cmd "$WORK/parallel.mtf" >"$WORK/parallel.$cmd"
  same "stored $cmd" "$WORK/serial.$cmd" "$WORK/parallel.$cmd"
done
# Without loops the program model has an NLR of its own (with them it derives from theirs).
"$MTF" -q convert --no-loops "$TRACE" -o "$WORK/serial-noloops.mtf"
"${MPI[@]}" convert --no-loops "$TRACE" -o "$WORK/parallel-noloops.mtf"
"$MTF" -q model "$WORK/serial-noloops.mtf" >"$WORK/serial-noloops.model"
"$MTF" -q model "$WORK/parallel-noloops.mtf" >"$WORK/parallel-noloops.model"
same "stored model without loops" "$WORK/serial.model" "$WORK/parallel-noloops.model"
same "stored model of mtf without loops" "$WORK/serial.model" "$WORK/serial-noloops.model"
"$MTF" -q loops "$TRACE" >"$WORK/serial.loops2"
"${MPI[@]}" loops "$TRACE" >"$WORK/parallel.loops2"
same "mtf-mpi loops" "$WORK/serial.loops2" "$WORK/parallel.loops2"
"$MTF" -q model --recompute "$TRACE" >"$WORK/serial.model2"
"${MPI[@]}" model "$TRACE" >"$WORK/parallel.model2"
same "mtf-mpi model" "$WORK/serial.model2" "$WORK/parallel.model2"
"$MTF" -q stats "$TRACE" | grep -v '^MTF archive bytes' >"$WORK/serial.stats"
"${MPI[@]}" stats "$TRACE" | grep -v '^MTF archive bytes' >"$WORK/parallel.stats"
same "mtf-mpi stats" "$WORK/serial.stats" "$WORK/parallel.stats"
echo "ok: $N processes, $(wc -l <"$WORK/serial.dump") dump lines, $TRACE"
