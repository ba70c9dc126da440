#!/usr/bin/env bash
# The installed tree, as a consumer sees it: installs BUILD into a fresh prefix, checks what
# is there, builds examples/reader against it with find_package(mtf) (and a pkg-config
# build of the same program), and checks that the reader prints the event counts of the
# installed `mtf info --json` on every real trace and on the .mtf archive of each.
# install_test.sh SOURCE_DIR BUILD_DIR PYTHON (ON: the Python module was built too)
set -euo pipefail
SRC=$1
BUILD=$2
PYTHON=${3:-OFF}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtf-install-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PREFIX=$WORK/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
for f in bin/mtf bin/mtf-gen include/mtf/mtf.hpp include/mtf/trace.hpp lib/libmtf_api.a \
         lib/cmake/mtf/mtfConfig.cmake lib/cmake/mtf/mtfConfigVersion.cmake \
         lib/cmake/mtf/mtfTargets.cmake lib/pkgconfig/mtf.pc share/mtf/mtf.xsd \
         share/man/man1/mtf.1 share/man/man1/mtf-gen.1 share/doc/mtf/mtf-help.txt \
         share/doc/mtf/api.md lib/mtf/mtf-xsd-validator.so; do
  [ -e "$PREFIX/$f" ] || fail "$f not installed"
done
# Only the public headers: nothing of src/ or converters/.
extra=$(find "$PREFIX/include" -type f ! -path "$PREFIX/include/mtf/*")
[ -z "$extra" ] || fail "headers outside include/mtf: $extra"
grep -q '^\.SH mtf convert' "$PREFIX/share/man/man1/mtf.1" || fail "mtf.1 lacks 'mtf convert'"
grep -q 'wavefront' "$PREFIX/share/man/man1/mtf-gen.1" || fail "mtf-gen.1 lacks wavefront"
# The installed program finds the installed schema.
"$PREFIX/bin/mtf" -q convert "$SRC/samples/wavefront-4x10/traces.otf2" -o "$WORK/s.mtf.xml"
"$PREFIX/bin/mtf" validate "$WORK/s.mtf.xml" >/dev/null
# Xerces-C is not linked into the program: validation loads the installed module (not the
# build tree's, its last resort).
! ldd "$PREFIX/bin/mtf" | grep -q xerces || fail "bin/mtf is linked with Xerces-C"
LD_DEBUG=files "$PREFIX/bin/mtf" validate "$WORK/s.mtf.xml" >/dev/null 2>"$WORK/ld-debug.txt"
grep -q "file=.*/lib/mtf/mtf-xsd-validator.so" "$WORK/ld-debug.txt" ||
  fail "mtf validate did not load $PREFIX/lib/mtf/mtf-xsd-validator.so"

# The Python module, installed where Debian's python3 looks under a prefix.
if [ "$PYTHON" = ON ]; then
  n=$(PYTHONPATH=$PREFIX/lib/python3/dist-packages /usr/bin/python3 -c \
    "import mtf, sys; print(len(mtf.open(sys.argv[1]).events()))" "$SRC/samples/wavefront-4x10/traces.otf2")
  [ "$n" = 6416 ] || fail "installed Python module: $n events on the sample, not 6416"
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$SRC/examples/reader" -B "$WORK/reader" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX" "${launcher[@]}" >/dev/null
cmake --build "$WORK/reader" >/dev/null
READER=$WORK/reader/mtf-example-reader
# pkg-config: the same program from mtf.pc alone.
PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig c++ -O1 -o "$WORK/reader-pc" "$SRC/examples/reader/reader.cpp" \
  $(PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config --cflags --libs mtf)

# The real traces: the paths between 'traces = {' and '};' in real_traces.hpp.
mapfile -t traces < <(sed -n '/traces = {/,/};/p' "$SRC/tests/data/real_traces.hpp" |
  grep -o '"[^"]*"' | tr -d '"')
[ "${#traces[@]}" -ge 8 ] || fail "found only ${#traces[@]} real traces"

# check TRACE READER: first line 'events N' with N = mtf info's events; the per-location
# lines add up to N and each equals mtf stats' events of that location.
check() {
  local trace=$1 reader=$2 expected out first sum loops expected_loops
  expected=$("$PREFIX/bin/mtf" info --json "$trace" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
  out=$("$reader" "$trace") || fail "$reader $trace exited $?"
  first=$(head -n1 <<<"$out")
  [ "$first" = "events $expected" ] || fail "$trace: '$first', mtf info says $expected"
  sum=$(awk '$1 == "location" { s += $4 } END { print s + 0 }' <<<"$out")
  [ "$sum" = "$expected" ] || fail "$trace: locations add up to $sum, not $expected"
  # The loops column: as many loops as the 'for' lines `mtf loops` prints.
  loops=$(awk '$1 == "location" { s += $6 } END { print s + 0 }' <<<"$out")
  expected_loops=$("$PREFIX/bin/mtf" -q loops "$trace" | grep -c '^ *for i' || true)
  [ "$loops" = "$expected_loops" ] || fail "$trace: $loops loops, mtf loops prints $expected_loops"
  echo "ok $trace: events $expected, loops $loops"
}

i=0
for t in "${traces[@]}"; do
  trace=$SRC/tests/data/$t
  check "$trace" "$READER"
  i=$((i + 1))
  archive=$WORK/real$i.mtf
  "$PREFIX/bin/mtf" -q convert "$trace" -o "$archive"
  check "$archive" "$READER"
done
check "$SRC/samples/wavefront-4x10/traces.otf2" "$WORK/reader-pc"
"$READER" "$SRC/samples/wavefront-4x10/traces.otf2" | grep -qx 'location 0 events 1604 loops 3' ||
  fail "the sample's location 0: not 1604 events and 3 loops"
echo "install test passed"
