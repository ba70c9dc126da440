#!/bin/sh
# Creates the large input at test time (sparse, never committed).
set -e
cp trc.part trace/tautrace.0.0.0.trc
truncate -s 64G trace/tautrace.0.0.0.trc
