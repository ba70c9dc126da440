# Shared set-up of the compaction benchmarks (sourced): tools of BUILD_DIR ($1, default
# build), the work folder, and a check that the tools are built.
BUILD=${1:-build}
GEN=$BUILD/mtf-gen
MTF=$BUILD/mtf
BARE=$BUILD/bench/otf2/otf2_bare_read
WORK=${WORK:-/tmp/mtf-bench-compaction}
for tool in "$GEN" "$MTF" "$BARE"; do
  [[ -x $tool ]] || { echo "missing $tool: build the targets mtf_cli, mtf-gen, otf2_bare_read" >&2; exit 1; }
done
mkdir -p "$WORK"
