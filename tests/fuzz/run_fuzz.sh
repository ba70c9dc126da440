#!/usr/bin/env bash
# run_fuzz.sh FUZZER SEED_CORPUS SECONDS [extra libFuzzer args]
# Runs FUZZER for SECONDS over a scratch copy of SEED_CORPUS (the checked-in seeds are never
# modified); prints the number of executions. Any crash input is saved as
# crash-* in the current directory and the script fails.
set -euo pipefail
fuzzer=$1 seeds=$2 seconds=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
[ -d "$seeds" ] && cp -r "$seeds/." "$work/corpus/" 2>/dev/null || true
"$fuzzer" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=2 \
  -print_final_stats=1 "$@" 2>&1 | tee "$work/log" | grep -E 'stat::number_of_executed_units|ERROR|SUMMARY|crash-' || true
! grep -q -E 'ERROR: (libFuzzer|AddressSanitizer|UndefinedBehaviorSanitizer)|runtime error' "$work/log"
