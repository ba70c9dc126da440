#!/bin/sh
# A copy of a real trace of tests/data, made at test time, whose state at line 1556 has
# the end -1 (paraver-kernel reads it and draws no end).
set -e
cp -r "$MTF_DATA_DIR/paraver/compss-cholesky" trace
sed -i '1556s/^1:1:1:2:1:4489877000:831000:1$/1:1:1:2:1:4489877000:-1:1/' trace/cholesky_autoparallel.prv
grep -q '^1:1:1:2:1:4489877000:-1:1$' trace/cholesky_autoparallel.prv
