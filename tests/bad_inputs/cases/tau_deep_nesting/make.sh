#!/bin/sh
# 2^18 nested calls of "iteration" (event 6) never left, all at one timestamp: deep
# nesting and a column chunk without time planes. Made at test time by doubling.
set -e
printf '\006\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000\000\002\000\000\000\000\000\000' > body
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do cat body body > body2 && mv body2 body; done
cat trc.part body > trace/tautrace.0.0.0.trc
rm body
