#!/bin/sh
# An incomplete copy of a real trace of tests/data, made at test time.
set -e
cp -r "$MTF_DATA_DIR/otf2/pipit-ping-pong" trace
chmod -R u+w trace
rm trace/traces/1.evt
