#!/bin/sh
# `gpuprof diff` against values computed independently (tests/diff/check.py:
# synthetic pairs with known differences, the U test recomputed, the
# tb-profiler samples of the shared data folder when present, scipy when
# Debian's python3-scipy is there). The closing line is
# "diff: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
case $GPUPROF in
/*) ;;
*/*) GPUPROF=$root/$GPUPROF ;;
esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL diff: python3 is needed (tools/setup.sh installs it)"
	echo "diff: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/diff/check.py "$GPUPROF" "$shared/data"
