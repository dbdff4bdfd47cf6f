#!/bin/sh
# pandas reads gpuprof's tables exactly: --table and -o DIR/ CSVs on a trace
# past 2^53 ns, and every table of steps/ops/kernels on real traces of the
# shared data folder ($GPUPROF_SHARED, default ../shared beside the
# repository; skipped when absent), with Debian's python3-pandas
# (tests/pandas/check.py).
set -u
root=$(pwd)
case $GPUPROF in /*) ;; *) GPUPROF=$root/$GPUPROF ;; esac
exec "${PYTHON:-/usr/bin/python3}" tests/pandas/check.py "$GPUPROF" "${GPUPROF_SHARED:-$root/../shared}"
