#!/usr/bin/env bash
# What the range coder (src/values/range_coder.hpp, residual_model.hpp) would make of the
# column chunks of every real trace: converts each with MTF_RC_MEASURE set (every chunk then
# reports its zstd frame and its residuals range coded, src/values/rc_measure.hpp) and
# prints per trace the column bytes today and under each choice, and the .mtf / zstd -19
# ratio each choice would give (the .mtf less the chunks' change), with geometric means.
# Choices per chunk: zstd (today), values (value section range coded, time planes in zstd),
# all (time and values range coded, no zstd), best (the smallest of the three, per chunk).
# Usage: bench/corpus/rc_measure.sh [BUILD_DIR]   (traces: ../shared/traces and tests/data)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
MTF=$BUILD/mtf
WORK=${WORK:-/tmp/mtf-rc-measure}
rm -rf "$WORK" && mkdir -p "$WORK"
ROOTS=()
[[ -d $ROOT/../shared/traces ]] && ROOTS+=("$(cd "$ROOT/../shared/traces" && pwd)")
ROOTS+=("$ROOT/tests/data")

trace_files() {  # as bench_corpus.sh
  local dir=$1 format=$2
  (
    cd "$dir"
    case $format in
      otf2) find . -name '*.otf2' -o -name '*.def' -o -name '*.evt' -o -name '*.thumb' ;;
      paraver)
        for prv in *.prv *.prv.gz; do
          [[ -e $prv ]] || continue
          [[ $prv == *.prv.gz && -e ${prv%.gz} ]] && continue
          echo "./$prv"
        done
        find . -name '*.pcf' -o -name '*.row' ;;
      tau)
        if compgen -G 'tautrace.*.trc' >/dev/null; then
          find . -name 'tautrace.*.trc' -o -name 'events.*.edf'
        else
          find . -name 'tau.trc' -o -name 'tau.edf'
        fi ;;
    esac
  ) | sed 's|^\./||' | sort
}
mtf_input() {
  local dir=$1 format=$2 f
  case $format in
    otf2) f=$(find "$dir" -maxdepth 1 -name '*.otf2' | sort | head -1) ;;
    paraver) f=$(find "$dir" -maxdepth 1 -name '*.prv' | sort | head -1)
             [[ -n $f ]] || f=$(find "$dir" -maxdepth 1 -name '*.prv.gz' | sort | head -1) ;;
    tau) f=$dir ;;
  esac
  echo "$f"
}

# Per chunk: zstd = its frame; values = zstd of the payload before the values (header, time
# planes) + the stream table without its sizes + the range coded values; all = header +
# range coded times + table without sizes + range coded values (+ the frame's 4 bytes of
# marker and size, the same for every choice, in `encoded`).
summarise() {
  awk '/^rc-measure/ {
         for (i = 2; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2] }
         mark = v["encoded"] - 0; z = v["encoded"]; tbl = v["table"] - v["sizes"]
         val = 4 + v["zstdPrefix"] + tbl + v["rcStreams"]
         all = 4 + v["header"] + v["rcTime"] + tbl + v["rcStreams"]
         b = z; if (val < b) b = val; if (all < b) b = all
         Z += z; V += val; A += all; B += b; S += 4 + v["zstdPrefix"] + tbl + v["rcSlots"]
         if (b == z) nz++; else if (b == val) nv++; else na++
         ev += v["events"]; n++
       }
       END { printf "%d %d %d %d %d %d %d %d %d %d\n", n, ev, Z, V, A, B, S, nz, nv, na }' "$1"
}

printf '%-8s %-26s %8s %8s %8s | %8s %8s %8s %8s %8s | %6s %6s %6s %6s  chunks z/v/a\n' \
  format trace mtf zstd-19 chunks values all best slots ratio r-val r-all r-best
RESULTS=$WORK/results.txt
: >"$RESULTS"
declare -A SEEN
for root in "${ROOTS[@]}"; do
  for format in otf2 paraver tau; do
    [[ -d $root/$format ]] || continue
    for dir in "$root/$format"/*/; do
      dir=${dir%/}
      name=$(basename "$dir")
      [[ -z ${SEEN[$format/$name]:-} ]] || continue
      SEEN[$format/$name]=1
      mapfile -t files < <(trace_files "$dir" "$format")
      [[ ${#files[@]} -gt 0 ]] || continue
      zst=$(cd "$dir" && tar cf - "${files[@]}" | zstd -19 -q -c | wc -c)
      out=$WORK/$format-$name.mtf
      MTF_RC_MEASURE=1 "$MTF" -q convert "$(mtf_input "$dir" "$format")" -o "$out" --force \
        2>"$WORK/$format-$name.log"
      mtfb=$(wc -c <"$out")
      read -r n ev z val all best slots nz nv na < <(summarise "$WORK/$format-$name.log")
      awk -v f="$format" -v t="$name" -v m="$mtfb" -v zs="$zst" -v z="$z" -v val="$val" \
        -v all="$all" -v b="$best" -v s="$slots" -v nz="$nz" -v nv="$nv" -v na="$na" 'BEGIN {
        printf "%-8s %-26s %8d %8d %8d | %8d %8d %8d %8d | %6.3f %6.3f %6.3f %6.3f  %d/%d/%d\n",
          f, t, m, zs, z, val, all, b, s, m / zs, (m - z + val) / zs, (m - z + all) / zs,
          (m - z + b) / zs, nz, nv, na }'
      awk -v f="$format" -v m="$mtfb" -v zs="$zst" -v z="$z" -v val="$val" -v all="$all" \
        -v b="$best" 'BEGIN { print f, m / zs, (m - z + val) / zs, (m - z + all) / zs, (m - z + b) / zs }' >>"$RESULTS"
      rm -f "$out"
    done
  done
done
echo
awk '{ for (k = 2; k <= 5; ++k) { s[$1, k] += log($k); s["all", k] += log($k) } n[$1]++; n["all"]++ }
     END { for (f in n) printf "geometric mean .mtf/zstd-19 %-8s today %.3f values %.3f all %.3f best %.3f (%d traces)\n",
             f, exp(s[f, 2] / n[f]), exp(s[f, 3] / n[f]), exp(s[f, 4] / n[f]), exp(s[f, 5] / n[f]), n[f] }' "$RESULTS" | sort
