#!/usr/bin/env bash
# run_case.sh MTF CASE_DIR: one golden bad-input test.
# CASE_DIR holds the input files, `cmd` (the mtf arguments, paths relative to the case),
# `expected` (line 1: exit status; line 2: the exact first line of stderr) and optionally
# make.sh (creates large inputs, or incomplete copies of tests/data's real traces, at test
# time; $MTF_DATA_DIR is tests/data) and `then` (mtf commands that must then
# succeed, one per line). The case runs in a scratch copy under a
# virtual-memory limit (ulimit -v, default 400 MB) and a timeout; it passes when status and
# first stderr line match, it ended within MTF_BAD_INPUT_SECONDS (default 10) and its peak
# RSS stayed under MTF_BAD_INPUT_RSS_MB (default 200).
# Under AddressSanitizer (MTF_BAD_INPUT_SANITIZED=1) the memory limits are not applied:
# ASan reserves terabytes of virtual memory and doubles the RSS.
set -euo pipefail
mtf=$(realpath "$1") case=$(realpath "$2")
name=$(basename "$case")
seconds=${MTF_BAD_INPUT_SECONDS:-10}
rss_mb=${MTF_BAD_INPUT_RSS_MB:-200}
vmem_kb=${MTF_BAD_INPUT_VMEM_KB:-409600}
sanitized=${MTF_BAD_INPUT_SANITIZED:-0}
# A case's make.sh may build its input from the real traces of tests/data.
MTF_DATA_DIR=$(realpath "$case/../../../data")
export MTF_DATA_DIR
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$case/." "$work/"
cd "$work"
[ -f make.sh ] && sh make.sh
read -r args < cmd
expected_status=$(sed -n 1p expected)
expected_message=$(sed -n 2p expected)
set +e
(
  if [ "$sanitized" != 1 ]; then ulimit -v "$vmem_kb"; fi
  # shellcheck disable=SC2086  # cmd holds several arguments
  exec /usr/bin/time -f '%e %M' -o time.out timeout -k 5 $((seconds * 3)) "$mtf" $args \
    >stdout.out 2>stderr.out
)
status=$?
set -e
read -r elapsed rss_kb < <(grep -E '^[0-9.]+ [0-9]+$' time.out | tail -n 1)
message=$(head -n 1 stderr.out)
fail=0
if [ "$status" != "$expected_status" ]; then
  echo "$name: exit status $status, expected $expected_status"; fail=1
fi
if [ "$message" != "$expected_message" ]; then
  printf '%s: first line of stderr\n  got:      %s\n  expected: %s\n' "$name" "$message" \
    "$expected_message"; fail=1
fi
if awk -v e="$elapsed" -v s="$seconds" 'BEGIN { exit !(e > s) }'; then
  echo "$name: took ${elapsed} s (limit ${seconds} s)"; fail=1
fi
if [ "$sanitized" != 1 ] && [ "$rss_kb" -gt $((rss_mb * 1024)) ]; then
  echo "$name: peak RSS $((rss_kb / 1024)) MB (limit ${rss_mb} MB)"; fail=1
fi
echo "$name: exit $status in ${elapsed} s, peak RSS $((rss_kb / 1024)) MB: $message"
# Optional `then`: further mtf commands, one per line, that must succeed on what the case
# produced (e.g. reading back an archive written from an odd input).
if [ -f then ]; then
  while read -r next; do
    # shellcheck disable=SC2086  # a line holds several arguments
    if ! (if [ "$sanitized" != 1 ]; then ulimit -v "$vmem_kb"; fi
          timeout -k 5 $((seconds * 3)) "$mtf" $next >/dev/null 2>then.err); then
      echo "$name: then 'mtf $next' failed: $(head -n 1 then.err)"; fail=1
    fi
  done < then
fi
exit $fail
