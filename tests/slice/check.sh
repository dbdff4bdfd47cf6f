#!/bin/sh
# `gpuprof trace slice|merge` against independent readings of the JSON
# (tests/slice/check.py, python3 standard library only): the hand-made
# fixtures rank0.json/rank1.json with hand-listed results, and the real
# traces of ../shared/data/torch when present. Prints "slice: N passed, N
# failed".
set -u
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL slice: python3 is needed (tools/setup.sh installs it)"
	echo "slice: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/slice/check.py "$GPUPROF" "${GPUPROF_SHARED:-$(pwd)/../shared}"
