#!/bin/sh
# An incomplete copy of a real trace of tests/data, made at test time.
set -e
cp -r "$MTF_DATA_DIR/tau/opencl-l5" trace
chmod -R u+w trace
rm trace/*.trc trace/tau.edf
