#!/bin/sh
# A copy of a real trace of tests/data, made at test time.
set -e
cp -r "$MTF_DATA_DIR/paraver/compss-cholesky" trace
