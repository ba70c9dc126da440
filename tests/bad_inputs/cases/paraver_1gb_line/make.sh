#!/bin/sh
# Creates the large input at test time (sparse, never committed).
set -e
printf '%s\n1:1:1:1:1:0:' '#Paraver (22/11/2026 at 03:46):2518108_ns:1:1:2(1:1,1:1)' > t.prv
truncate -s 1G t.prv
