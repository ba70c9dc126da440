#!/usr/bin/env bash
# Draws docs/wavefront-ptag.svg, the README's picture: the PTAG of the generated 16-rank
# wavefront with --fold-ranks (one node per call path over all ranks), laid out by
# Graphviz. Graphviz is a tool for making this picture only (not a build or test
# dependency): the script installs the Debian package when `dot` is missing.
# Usage: docs/make_ptag_picture.sh [BUILD_DIR]   (default: build)
set -euo pipefail
BUILD=${1:-build}
if ! command -v dot >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends graphviz
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BUILD/mtf-gen" wavefront --ranks 16 --iterations 249 --inner 160 -o "$WORK/wavefront.otf2" >/dev/null
"$BUILD/mtf" -q graph "$WORK/wavefront.otf2" --fold-ranks --dot -o "$WORK/ptag.dot"
dot -Tsvg "$WORK/ptag.dot" -o docs/wavefront-ptag.svg
echo "docs/wavefront-ptag.svg written"
