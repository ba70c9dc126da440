#!/usr/bin/env bash
# Installs everything mtf needs to build and test on Debian bookworm (run as root).
# One package list; add a package here (one per line) when the project needs it.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libotf2-trace-dev otf2-tools python3-otf2
  libxerces-c-dev libxml2-dev libxml2-utils
  zlib1g-dev libzstd-dev liblzma-dev python3-zstandard
  libfftw3-dev
  libopenmpi-dev openmpi-bin
  libgtest-dev googletest
  libcli11-dev nlohmann-json3-dev
  zstd xz-utils gzip time
  python3-networkx python3-pydot
  clang-format clang libclang-rt-14-dev
  librsvg2-bin
  python3-pybind11 python3-numpy python3-pandas python3-pytest
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
