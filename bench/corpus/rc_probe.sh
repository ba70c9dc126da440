#!/usr/bin/env bash
# Bench-only: what variants of coding 7's models (src/values/rc_probe.cpp) would make of
# every real trace. Converts each with MTF_RC_PROBE set (the archive is the same; every
# chunk is also range coded whatever its size, and reports its zstd frame, its range coded
# size and each variant's estimate) and prints per trace and variant the .mtf / zstd -19
# ratio the variant would give with today's rule (a chunk within the trial's limits is
# range coded when 3% smaller than zstd and by at least a bit an event) and with no limits
# ("+nl"), with geometric means.
# Each chunk reports once, when it is delivered, with the zstd frame it was delivered with
# (where the column dictionary is judged beside range coding, column_dictionary.cpp, a held
# chunk is compressed twice: the line carries the winner's frame).
# Usage: bench/corpus/rc_probe.sh [BUILD_DIR]   (traces: ../shared/traces and tests/data)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${1:-$ROOT/build}
MTF=${MTF:-$BUILD/mtf}
WORK=${WORK:-/tmp/mtf-rc-probe}
rm -rf "$WORK" && mkdir -p "$WORK"
ROOTS=()
[[ -d $ROOT/../shared/traces ]] && ROOTS+=("$(cd "$ROOT/../shared/traces" && pwd)")
ROOTS+=("$ROOT/tests/data")
# The zstd -19 sizes, kept between runs (ZSTD_CACHE: a file of "format/name bytes").
ZSTD_CACHE=${ZSTD_CACHE:-$WORK.zstd-cache-v2}  # v2: a gzipped file counts as its content
touch "$ZSTD_CACHE"

# shellcheck source=bench/corpus/corpus_files.sh
source "$(dirname "$0")/corpus_files.sh"


# Per chunk: today = zstd, or ranged when within, 3% smaller and a bit an event smaller; variant v: the ranged size
# moved by (estimate v - estimate base), chosen by the same rule (or with no limit).
summarise() {
  awk '/^rc-probe/ {
         nv = 0
         for (i = 2; i <= NF; ++i) {
           split($i, kv, "="); v[kv[1]] = kv[2]
           if (i > 5) { names[++nv] = kv[1] }
         }
         z = v["zstd"]; r = v["ranged"]; base = v["base"]
         e = v["events"]
         today = (v["within"] == 1 && r * 100 <= z * 97 && (z - r) * 8 >= e) ? r : z
         T += today
         for (k = 1; k <= nv; ++k) {
           rv = r + v[names[k]] - base
           c = (v["within"] == 1 && rv * 100 <= z * 97 && (z - rv) * 8 >= e) ? rv : z
           nl = (rv * 100 <= z * 97 && (z - rv) * 8 >= e) ? rv : z
           S[k] += c; N[k] += nl
         }
       }
       END {
         printf "today=%d", T
         for (k = 1; k <= nv; ++k) printf " %s=%.0f %s+nl=%.0f", names[k], S[k], names[k], N[k]
         printf "\n"
       }' "$1"
}

RESULTS=$WORK/results.txt
: >"$RESULTS"
while read -r format name dir; do
  [[ -z ${ONLY:-} || $format == "$ONLY" ]] || continue
  mapfile -t files < <(trace_files "$dir" "$format")
  [[ ${#files[@]} -gt 0 ]] || continue
  zst=$(awk -v k="$format/$name" '$1 == k { print $2 }' "$ZSTD_CACHE")
  if [[ -z $zst ]]; then
    plain_files "$dir" "$WORK/plain"  # sets base; a gzipped file counts as its content
    zst=$(cd "$base" && tar cf - "${files[@]}" | zstd -19 -q -c | wc -c)
    echo "$format/$name $zst" >>"$ZSTD_CACHE"
  fi
  out=$WORK/$format-$name.mtf
  MTF_RC_PROBE=1 "$MTF" -q convert "$(mtf_input "$dir" "$format")" -o "$out" --force \
    2>"$WORK/$format-$name.log"
  mtfb=$(wc -c <"$out")
  line=$(summarise "$WORK/$format-$name.log")
  echo "$format $name mtf=$mtfb zstd19=$zst $line" | tee -a "$RESULTS"
  rm -f "$out"
done < <(trace_list)
echo
# Ratio per variant: (.mtf - today's chunk bytes + the variant's) / zstd -19.
awk '{
       m = 0; z = 0
       for (i = 3; i <= NF; ++i) { split($i, kv, "="); v[kv[1]] = kv[2]; if (i > 5) key[i] = kv[1] }
       for (i = 6; i <= NF; ++i) {
         r = (v["mtf"] - v["today"] + v[key[i]]) / v["zstd19"]
         L[$1, key[i]] += log(r); L["all", key[i]] += log(r); names[key[i]] = i
         printf "%-8s %-22s %-14s %.4f\n", $1, $2, key[i], r > "/dev/stderr"
       }
       r0 = v["mtf"] / v["zstd19"]
       L[$1, "today"] += log(r0); L["all", "today"] += log(r0); n[$1]++; n["all"]++
     }
     END {
       printf "%-16s", "variant"; for (f in n) printf " %8s", f; printf "\n"
       printf "%-16s", "today"; for (f in n) printf " %8.4f", exp(L[f, "today"] / n[f]); printf "\n"
       for (k in names) { printf "%-16s", k; for (f in n) printf " %8.4f", exp(L[f, k] / n[f]); printf "\n" }
     }' "$RESULTS" 2>"$WORK/per-trace.txt"
# The adaptive decisions each length coding makes over all chunks (decoding's cost: about
# 40 instructions each), against coding 7's tree ("base").
cat "$WORK"/*.log | awk '/^rc-decisions/ {
    for (i = 3; i <= NF; ++i) { split($i, kv, "="); d[kv[1]] += kv[2] }
  }
  END {
    printf "adaptive decisions:"
    for (k in d) printf " %s %d (%.2fx)", k, d[k], d[k] / d["base"]
    printf "\n"
  }'
