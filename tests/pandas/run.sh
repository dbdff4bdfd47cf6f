#!/bin/sh
# pandas reads gpuprof's tables exactly: --table and -o DIR/ CSVs on a trace
# past 2^53 ns, with Debian's python3-pandas (tests/pandas/check.py).
set -u
root=$(pwd)
case $GPUPROF in /*) ;; *) GPUPROF=$root/$GPUPROF ;; esac
exec "${PYTHON:-/usr/bin/python3}" tests/pandas/check.py "$GPUPROF"
