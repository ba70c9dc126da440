#!/usr/bin/env bash
# mtf-mpi on bad input: a clear error, once, a non-zero exit, and no output left behind
# (neither the archive nor a process's spool), whichever process meets the problem.
# Usage: mpi_errors.sh BUILD_DIR N
set -uo pipefail
BUILD=$1 N=$2
# shellcheck source=tests/mpi/common.sh
source "$(dirname "$0")/common.sh"
fail() { echo "FAIL ($N processes): $*" >&2; exit 1; }
# expect CODE TEXT CMD...: the command exits with CODE and says TEXT once on stderr.
expect() {
  local code=$1 text=$2
  shift 2
  "$@" >"$WORK/out" 2>"$WORK/err"
  local got=$?
  [[ $got == "$code" ]] || { cat "$WORK/err" >&2; fail "exit $got, not $code: $*"; }
  [[ $(grep -c -F -- "$text" "$WORK/err") == 1 ]] || { cat "$WORK/err" >&2; fail "'$text' not said once: $*"; }
}

expect 2 "missing.otf2" "${MPI[@]}" convert "$WORK/missing.otf2" -o "$WORK/out.mtf"
[[ ! -e $WORK/out.mtf ]] || fail "an archive was left for a missing input"

# One location's event file cut short: only the process reading it fails.
"$BUILD/mtf-gen" wavefront --ranks 8 --iterations 4 --inner 2 -o "$WORK/cut.otf2" >/dev/null
last=$(ls "$WORK/cut"/*.evt | sort -t/ -k2 -V | tail -1)
head -c 100 "$last" >"$WORK/part" && mv "$WORK/part" "$last"
expect 2 "location 7" "${MPI[@]}" convert "$WORK/cut.otf2" -o "$WORK/sub/cut.mtf"
[[ ! -e $WORK/sub ]] || fail "the output folder or a spool was left: $(ls -a "$WORK/sub")"
expect 2 "location 7" "${MPI[@]}" loops "$WORK/cut.otf2"

"$BUILD/mtf-gen" ring --ranks 4 --iterations 2 -o "$WORK/ok.otf2" >/dev/null
# A failure in a collective phase (the merge) ends every process; the archive being written
# and the spools go with the staging directory.
last=$((N - 1))
MTF_MPI_FAULT=$last expect 3 "process $last: fault injected" \
  "${MPIRUN[@]}" -x MTF_MPI_FAULT "$BUILD/mtf-mpi" -q convert "$WORK/ok.otf2" -o "$WORK/f/ok.mtf"
[[ -z $(ls -A "$WORK/f" 2>/dev/null) ]] || fail "left behind after a merge failure: $(ls -A "$WORK/f")"
"${MPI[@]}" convert "$WORK/ok.otf2" -o "$WORK/ok.mtf" || fail "a good conversion failed"
expect 3 "exists" "${MPI[@]}" convert "$WORK/ok.otf2" -o "$WORK/ok.mtf"
expect 1 "--output is required" "${MPI[@]}" convert "$WORK/ok.otf2"
expect 1 "name the output *.mtf" "${MPI[@]}" convert "$WORK/ok.otf2" -o "$WORK/ok.prv"
[[ ! -e $WORK/ok.prv ]] || fail "an output was written under a name that is not .mtf"
# A full disk (a small tmpfs, where mounting is allowed): the error once, naming the output
# the user gave (not a spool in the staging directory), and nothing left.
mkdir -p "$WORK/small"
if mount -t tmpfs -o size=40k tmpfs "$WORK/small" 2>/dev/null; then
  trap 'umount "$WORK/small"; rm -rf "$WORK"' EXIT
  "$BUILD/mtf-gen" wavefront --ranks 8 --iterations 200 --inner 3 -o "$WORK/big.otf2" 2>/dev/null
  expect 3 "mtf-mpi: $WORK/small/o/big.mtf: write failed" \
    "${MPI[@]}" convert "$WORK/big.otf2" -o "$WORK/small/o/big.mtf"
  ! grep -q "mtf-tmp\|mtf-mpi-columns" "$WORK/err" || fail "a staging file named: $(cat "$WORK/err")"
  [[ -z $(ls -A "$WORK/small") ]] || fail "left on a full disk: $(ls -A "$WORK/small")"
else
  echo "skipped: the full-disk case (cannot mount a tmpfs here)"
fi
echo "ok: bad inputs with $N processes"
