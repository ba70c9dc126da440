# Shared by scripts/check-paramedir.sh and scripts/check-chop-paramedir.sh (sourced, with
# NAME set to the script's name): the tools (paramedir: $PARAMEDIR, default
# /root/paraver/bin/paramedir, built as ../shared/formats/README.md says; mtf and mtf-gen:
# $MTF_BUILD, default build/), a work folder removed on exit, and what both read off a trace.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
paramedir=${PARAMEDIR:-/root/paraver/bin/paramedir}
build=${MTF_BUILD:-$root/build}
mtf=$build/mtf
gen=$build/mtf-gen
cfg=$root/scripts/paramedir/comm_sends.cfg

if [[ ! -x $paramedir ]]; then
  echo "$NAME: paramedir not found at $paramedir; build paraver-kernel" \
    "(see ../shared/formats/README.md, 'Checking with BSC's paramedir') or set PARAMEDIR" >&2
  exit 2
fi
for tool in "$mtf" "$gen"; do
  if [[ ! -x $tool ]]; then
    echo "$NAME: $tool not found; build the mtf_cli and mtf-gen targets" >&2
    exit 2
  fi
done
command -v jq > /dev/null || { echo "$NAME: needs jq" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The messages of a trace: its send events.
messages_of() {
  "$mtf" -q info "$1" --json 2> /dev/null | jq '(.events_by_kind.MpiSend // 0) + (.events_by_kind.MpiIsend // 0)'
}

# Sum of the THREAD rows of paramedir's #Sends matrix (tab-separated text: a line of column
# labels, one row per thread named as in the .row file, an empty line, then Total, Average...).
sends_in_matrix() {
  awk -F'\t' 'NR == 1 { next } $0 == "" { exit } { for (i = 2; i <= NF; ++i) sum += $i }
               END { printf "%d\n", sum }' "$1"
}
