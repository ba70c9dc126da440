#!/bin/sh
# An incomplete copy of a real trace of tests/data, made at test time.
set -e
cp -r "$MTF_DATA_DIR/paraver/paraver-kernel-qsort" trace
chmod -R u+w trace
rm trace/*.prv trace/*.prv.gz
