#!/bin/sh
# Installs Chrome DevTools' trace engine (npm package @paulirish/trace_engine, pinned by
# package-lock.json) into DIR/node_modules for the Chrome output tests, once.
# Without npm it says why and succeeds: the tests then skip, naming the reason.
# Usage: setup_engine.sh SOURCE_DIR DIR
set -eu
src=$1
dir=$2
mkdir -p "$dir"
for f in package.json package-lock.json check_trace.mjs; do
  cp "$src/$f" "$dir/$f.new" && mv "$dir/$f.new" "$dir/$f"
done
if [ -d "$dir/node_modules/@paulirish/trace_engine" ]; then
  echo "trace engine already installed in $dir"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "npm or node not found: the Chrome trace engine tests will skip"
  exit 0
fi
cd "$dir"
npm ci --no-audit --no-fund --loglevel=error || {
  echo "npm ci failed (no network?): the Chrome trace engine tests will skip"
  rm -rf node_modules
  exit 0
}
