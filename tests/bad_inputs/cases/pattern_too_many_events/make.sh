#!/bin/sh
# Creates the large input at test time (sparse, never committed).
set -e
# 2 ranks x 600,000 events > 2^20 (a 2.4 MB pattern, made at test time).
{ printf 'rank *:'; yes ' S+1' | head -n 600000 | tr -d '\n'; printf '\n'; } > many.pattern
