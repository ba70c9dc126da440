#!/usr/bin/env bash
# Interrupted runs leave nothing behind. Each writing command is stopped at a known point
# (MTF_TEST_PAUSE_AT=read|write|rename makes it wait there, util/interrupt.hpp) by SIGINT,
# SIGTERM and SIGHUP: the output folder must hold exactly what it held before (listing and
# contents, hidden files too), the exit status be 128 + signal and stderr say so in one
# line. After a SIGKILL at each point, the next run into the folder removes what the killed
# one left (one line on stderr) and leaves only its own output; `mtf clean` removes what a
# killed run left.
# Usage: interrupt.sh BUILD_DIR serial | interrupt.sh BUILD_DIR N (mtf-mpi on N processes)
set -uo pipefail
# Job control: a background job of a script would otherwise start with SIGINT ignored, and
# mtf (like other tools) leaves an ignored signal ignored.
set -m
BUILD=$1 MODE=$2
WORK=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] || rm -rf "$WORK"' EXIT
PAUSE=$WORK/pause OUT=$WORK/out
mkdir -p "$PAUSE"
fail() { echo "FAIL ($MODE): $*" >&2; exit 1; }
declare -A NUMBER=([INT]=2 [TERM]=15 [HUP]=1 [KILL]=9)

# The folder's state: every path (hidden ones too) and every file's checksum.
listing() { (cd "$OUT" && find . | sort && find . -type f -exec md5sum {} + | sort); }

# A folder mtf must not touch: a user's file, a directory named like a staging directory
# but without mtf's owner file, and an old output that --force runs replace.
prepare_folder() {
  rm -rf "$OUT" && mkdir -p "$OUT/.user.mtf.mtf-tmp-42"
  echo "not mtf's" >"$OUT/.user.mtf.mtf-tmp-42/data"
  echo keep >"$OUT/keep.txt"
  cp "$WORK/old.mtf" "$OUT/replaced.mtf"
  listing >"$WORK/before"
}

# start POINT CMD...: runs CMD in the background until it waits at POINT (EXPECTED
# processes wait there); sets PID.
start() {
  local point=$1 expected=$2
  shift 2
  rm -f "$PAUSE"/*
  MTF_TEST_PAUSE_AT=$point MTF_TEST_PAUSE_DIR=$PAUSE "$@" >"$WORK/stdout" 2>"$WORK/stderr" &
  PID=$!
  for _ in $(seq 1 3000); do
    (($(find "$PAUSE" -type f | wc -l) >= expected)) && return 0
    kill -0 "$PID" 2>/dev/null || { cat "$WORK/stderr" >&2; fail "ended before $point: $*"; }
    sleep 0.01
  done
  fail "never reached $point: $*"
}
finish() {
  wait "$PID" 2>/dev/null
  STATUS=$?
}
same_folder() {
  listing >"$WORK/after"
  diff "$WORK/before" "$WORK/after" >&2 || fail "$1: the folder changed"
}
said_once() {  # TEXT WHAT
  [[ $(grep -c -F -- "$1" "$WORK/stderr") == 1 ]] || { cat "$WORK/stderr" >&2; fail "$2: '$1' not said once"; }
}

MTF=("$BUILD/mtf" -q)
GEN=("$BUILD/mtf-gen")
"${GEN[@]}" wavefront --ranks 8 --iterations 30 --inner 3 -o "$WORK/in.otf2" 2>/dev/null ||
  fail "mtf-gen"
"${MTF[@]}" convert "$WORK/in.otf2" -o "$WORK/old.mtf" 2>/dev/null || fail "the reference conversion"

# The serial writing commands, each with the output it writes into $OUT.
declare -A SERIAL=(
  [convert-mtf]="convert $WORK/in.otf2 -o $OUT/t.mtf"
  [convert-mtf-force]="convert $WORK/in.otf2 -o $OUT/replaced.mtf --force"
  [convert-prv]="convert $WORK/in.otf2 -o $OUT/t.prv"
  [convert-otf2]="convert $WORK/in.otf2 -o $OUT/t.otf2"
  [convert-tau]="convert $WORK/in.otf2 --to tau -o $OUT/tau"
  [chop]="chop $WORK/in.otf2 --iterations 2 --shift-times -o $OUT/c.otf2"
  [gen]="gen"
)
serial_command() {  # NAME -> CMD array
  if [[ $1 == gen ]]; then
    CMD=("${GEN[@]}" wavefront --ranks 8 --iterations 30 --inner 3 -o "$OUT/g.otf2")
    PROGRAM=mtf-gen
  else
    read -r -a args <<<"${SERIAL[$1]}"
    CMD=("${MTF[@]}" "${args[@]}")
    PROGRAM=mtf
  fi
}

run_serial() {
  for name in "${!SERIAL[@]}"; do
    serial_command "$name"
    for point in read write rename; do
      for sig in INT TERM HUP; do
        prepare_folder
        start "$point" 1 "${CMD[@]}"
        kill -"$sig" "$PID"
        finish
        local what="$name at $point, SIG$sig"
        ((STATUS == 128 + NUMBER[$sig])) || { cat "$WORK/stderr" >&2; fail "$what: exit $STATUS"; }
        # The one line, last (chop may have reported what its cut left out before).
        said_once "interrupted" "$what"
        [[ $(tail -1 "$WORK/stderr") == "$PROGRAM: interrupted: nothing was written" ]] ||
          { cat "$WORK/stderr" >&2; fail "$what: not the line"; }
        same_folder "$what"
      done
      # SIGKILL: the next run removes the leftovers (one line) and adds only its output.
      prepare_folder
      start "$point" 1 "${CMD[@]}"
      kill -KILL "$PID"
      finish
      "${MTF[@]}" convert "$WORK/in.otf2" -o "$OUT/next.mtf" 2>"$WORK/stderr" ||
        fail "$name: the run after a SIGKILL at $point failed"
      said_once "removed a staging directory left by a killed run (pid $PID)" \
        "$name: SIGKILL at $point"
      [[ $(wc -l <"$WORK/stderr") == 1 ]] || { cat "$WORK/stderr" >&2; fail "more than one line"; }
      rm "$OUT/next.mtf"
      same_folder "$name: the run after a SIGKILL at $point"
    done
  done
  # graph -o and model --svg write at their end: a signal is seen by the final move into
  # place, which is then undone.
  for cmd in "graph $WORK/in.otf2 -o $OUT/g.graphml" "model $WORK/in.otf2 --svg $OUT/m.svg"; do
    read -r -a args <<<"$cmd"
    for sig in INT TERM HUP; do
      prepare_folder
      start rename 1 "${MTF[@]}" "${args[@]}"
      kill -"$sig" "$PID"
      finish
      ((STATUS == 128 + NUMBER[$sig])) || fail "${args[0]} at rename, SIG$sig: exit $STATUS"
      [[ $(tail -1 "$WORK/stderr") == "mtf: interrupted: nothing was written" ]] ||
        { cat "$WORK/stderr" >&2; fail "${args[0]} at rename, SIG$sig: not the line"; }
      same_folder "${args[0]} at rename, SIG$sig"
    done
  done
  # mtf clean leaves a staging directory alone whose owner runs.
  prepare_folder
  start read 1 "${MTF[@]}" convert "$WORK/in.otf2" -o "$OUT/t.mtf"
  "$BUILD/mtf" clean "$OUT" --json >"$WORK/clean.json" || fail "mtf clean"
  grep -q '"owner running"' "$WORK/clean.json" || fail "mtf clean did not keep a running one"
  kill -TERM "$PID"
  finish
  same_folder "mtf clean beside a running conversion"
  echo "ok: serial interrupts (${#SERIAL[@]} commands x 3 points x 4 signals; graph, model --svg)"
}

run_mpi() {
  local n=$MODE
  # Open MPI's shared-memory segments of the processes this test SIGKILLs stay behind
  # (nothing can remove them): in WORK, not in /dev/shm, they go with it.
  mkdir -p "$WORK/shm"
  export OMPI_MCA_btl_vader_backing_directory=$WORK/shm
  local mpirun=(mpirun --oversubscribe -np "$n")
  [[ $(id -u) == 0 ]] && mpirun+=(--allow-run-as-root)
  CMD=("${mpirun[@]}" -x MTF_TEST_PAUSE_AT -x MTF_TEST_PAUSE_DIR "$BUILD/mtf-mpi" -q convert
    "$WORK/in.otf2" -o "$OUT/m.mtf")
  declare -A waiting=([read]=$n [write]=$n [rename]=1)
  for point in read write rename; do
    for sig in INT TERM HUP; do
      # As a batch system does: the signal to every process.
      prepare_folder
      start "$point" "${waiting[$point]}" "${CMD[@]}"
      kill -"$sig" $(pgrep -P "$PID")
      finish
      local what="mtf-mpi -np $n at $point, SIG$sig"
      ((STATUS == 128 + NUMBER[$sig])) || { cat "$WORK/stderr" >&2; fail "$what: exit $STATUS"; }
      said_once "mtf-mpi: interrupted: nothing was written" "$what"
      same_folder "$what"
    done
    # Ctrl-C to mpirun: it sends SIGTERM to every process (and exits 1, its own status).
    prepare_folder
    start "$point" "${waiting[$point]}" "${CMD[@]}"
    kill -INT "$PID"
    finish
    said_once "mtf-mpi: interrupted: nothing was written" "SIGINT to mpirun at $point"
    same_folder "SIGINT to mpirun at $point"
    # One process killed: mpirun ends the others, which clean up; rank 0 names it.
    prepare_folder
    start "$point" "${waiting[$point]}" "${CMD[@]}"
    local victim
    victim=$(for p in $(pgrep -P "$PID"); do
      tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=$((n - 1))" && echo "$p"
    done)
    kill -KILL "$victim"
    finish
    if [[ $point != rename ]]; then  # at the rename, the others have finished already
      listing >"$WORK/after"
      if cmp -s "$WORK/before" "$WORK/after"; then
        said_once "mtf-mpi: interrupted: nothing was written (process $((n - 1)) died)" \
          "process $((n - 1)) killed at $point"
      else
        # Open MPI sends SIGKILL milliseconds after its SIGTERM: on a loaded machine (or
        # under the sanitizers) the survivors can lose that race and leave the staging
        # directory. Then `mtf clean` must remove all of it (the promise for what no
        # handler can catch).
        echo "note: -np $n, process $((n - 1)) killed at $point: the others were killed" \
          "before they cleaned up; checking that mtf clean removes the rest" >&2
        "$BUILD/mtf" clean "$OUT" >"$WORK/clean" || fail "mtf clean after a lost race"
        same_folder "mtf clean after process $((n - 1)) was killed at $point"
      fi
    fi
    # Every process killed (a lost node): the next run removes the leftovers.
    prepare_folder
    start "$point" "${waiting[$point]}" "${CMD[@]}"
    local children
    mapfile -t children < <(pgrep -P "$PID")
    kill -KILL "$PID"  # first: mpirun must not see a death and signal the others
    kill -KILL "${children[@]}"
    finish
    "${mpirun[@]}" "$BUILD/mtf-mpi" -q convert "$WORK/in.otf2" -o "$OUT/next.mtf" \
      2>"$WORK/stderr" || fail "the run after a SIGKILL at $point failed"
    said_once "removed a staging directory left by a killed run" "SIGKILL at $point"
    rm "$OUT/next.mtf"
    same_folder "the mtf-mpi run after a SIGKILL of every process at $point"
  done
  # Rank 0 killed: the others remove their spools; `mtf clean` removes the rest.
  prepare_folder
  start read "$n" "${CMD[@]}"
  victim=$(for p in $(pgrep -P "$PID"); do
    tr '\0' '\n' <"/proc/$p/environ" | grep -qx "OMPI_COMM_WORLD_RANK=0" && echo "$p"
  done)
  kill -KILL "$victim"
  finish
  [[ -n $(find "$OUT" -maxdepth 1 -name '.m.mtf.mtf-tmp-*') ]] || fail "nothing left to clean"
  "$BUILD/mtf" clean "$OUT" >"$WORK/clean" || fail "mtf clean"
  grep -q "^removed .*pid $victim" "$WORK/clean" || { cat "$WORK/clean" >&2; fail "mtf clean said"; }
  same_folder "mtf clean after rank 0 was killed"
  echo "ok: mtf-mpi interrupts with $n processes"
}

if [[ $MODE == serial ]]; then run_serial; else run_mpi; fi
