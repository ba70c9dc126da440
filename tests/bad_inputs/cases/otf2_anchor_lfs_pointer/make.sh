#!/bin/sh
# A copy of a real trace of tests/data whose anchor is a Git LFS pointer (never fetched).
set -e
cp -r "$MTF_DATA_DIR/otf2/pipit-ping-pong" trace
chmod -R u+w trace
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 1297\n' > trace/traces.otf2
