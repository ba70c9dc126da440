#!/usr/bin/env bash
# Speed of the text writers: `mtf convert T -o x.prv`, `mtf convert T -o dir --to tau` and
# `mtf dump T > /dev/null`, each as a ratio to the bare OTF2 read of T
# (bench/otf2/otf2_bare_read) measured in the same run: RUNS (default 3) rounds, each
# running the four commands one after the other (paired runs); the medians count.
# T: the 16-rank wavefront of 14.2 M events (`mtf-gen wavefront --ranks 16 --iterations 249
# --inner 160`, generated once in WORK: slow, not for CI), then the largest real OTF2
# trace, ../shared/traces/otf2/casita-jacobi-gpu, if present (TRACES=... replaces both).
#   wall  elapsed seconds; cpu  user + system seconds; rss  peak memory (MB)
# The outputs (and the Paraver writer's sorted runs, beside the .prv, for traces it cannot
# take in time order: paraver_writer_stream.cpp) go to OUT_DIR
# (default WORK): on a disk the kernel's write-back of ~0.7 GB of text is system time of
# its own (1.5 s for 740 MB on this machine's /tmp, 0.3 s on /dev/shm), so OUT_DIR=/dev/shm
# shows the writers' own work.
# Usage: bench/text/bench_text.sh [BUILD_DIR]   (default: build)
set -euo pipefail

BENCH=text
# shellcheck source=bench/bench_common.sh
source "$(dirname "$0")/../bench_common.sh"
SHARED=$(dirname "$0")/../../../shared/traces/otf2/casita-jacobi-gpu/traces.otf2
if [[ -z ${TRACES:-} ]]; then
  TRACES=$(wavefront_trace 249 160)
  [[ -f $SHARED ]] && TRACES="$TRACES $SHARED"
fi

# median VALUE... : the median (the mean of the middle two for an even count)
median() {
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# ratio A B : A / B, or n/a when B is below time's 0.01 s resolution several times over
# (a small trace: bench_instructions.sh counts those)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b < 0.05) print "n/a"; else printf "%.2fx", a / b}'; }

bench_trace() {
  local trace=$1 out=${OUT_DIR:-$WORK}/bench-text-out
  local -a w_bare=() c_bare=() w_prv=() c_prv=() m_prv=() \
    w_tau=() c_tau=() m_tau=() w_dump=() c_dump=() m_dump=()
  local i w c m
  for ((i = 0; i < RUNS; i++)); do
    read -r w c m < <(run_time "$BARE" "$trace"); w_bare+=("$w"); c_bare+=("$c")
    read -r w c m < <(run_time "$MTF" -q convert "$trace" -o "$out.prv" --force)
    w_prv+=("$w"); c_prv+=("$c"); m_prv+=("$m")
    read -r w c m < <(run_time "$MTF" -q convert "$trace" -o "$out.tau" --to tau --force)
    w_tau+=("$w"); c_tau+=("$c"); m_tau+=("$m")
    read -r w c m < <(run_time "$MTF" dump "$trace")
    w_dump+=("$w"); c_dump+=("$c"); m_dump+=("$m")
  done
  local bw bc
  bw=$(median "${w_bare[@]}"); bc=$(median "${c_bare[@]}")
  echo "trace: $trace ($("$BARE" "$trace" | awk '{print $1}') events), medians of $RUNS paired runs"
  printf '  %-28s wall %6.2f s  cpu %6.2f s\n' "otf2_bare_read" "$bw" "$bc"
  row() {  # NAME WALLS CPUS RSS GOAL
    local wm cm
    wm=$(median $2); cm=$(median $3)
    printf '  %-28s wall %6.2f s  cpu %6.2f s  = %6s wall, %6s cpu (goal %s)  rss %d MB\n' \
      "$1" "$wm" "$cm" "$(ratio "$wm" "$bw")" "$(ratio "$cm" "$bc")" "$5" \
      "$(( $(median $4) / 1024 ))"
  }
  row "mtf convert -> .prv" "${w_prv[*]}" "${c_prv[*]}" "${m_prv[*]}" "cpu <= 3"
  row "mtf convert --to tau" "${w_tau[*]}" "${c_tau[*]}" "${m_tau[*]}" "<= 2"
  row "mtf dump > /dev/null" "${w_dump[*]}" "${c_dump[*]}" "${m_dump[*]}" "none"
  echo "  .prv size: $(stat -c %s "$out.prv") bytes"
  rm -rf "$out.prv" "$out.pcf" "$out.row" "$out.tau"
}

for trace in $TRACES; do bench_trace "$trace"; done
