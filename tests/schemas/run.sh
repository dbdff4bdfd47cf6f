#!/bin/sh
# JSON Schemas (docs/schemas/) against gpuprof's real outputs, with Debian's
# python3-jsonschema (tests/schemas/check.py says what is checked).
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
case $GPUPROF in /*) ;; *) GPUPROF=$root/$GPUPROF ;; esac
exec "${PYTHON:-/usr/bin/python3}" tests/schemas/check.py "$GPUPROF" "$shared/data"
