#!/bin/sh
# `gpuprof diff` against values computed independently (tests/diff/check.py:
# synthetic pairs with known differences, the U test recomputed, the
# tb-profiler samples of the shared data folder when present, scipy when
# Debian's python3-scipy is there). The closing line is
# "diff: N passed, N failed". `run.sh kinds` runs tests/diff/kinds.py
# instead (the stage diffkinds: Nsight Compute reports and Nsight Systems
# analyses), closing with "diffkinds: N passed, N failed".
set -u
script=${1:-check}
stage=diff${1:-}
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
case $GPUPROF in
/*) ;;
*/*) GPUPROF=$root/$GPUPROF ;;
esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL $stage: python3 is needed (tools/setup.sh installs it)"
	echo "$stage: 0 passed, 1 failed"
	exit 1
fi
exec python3 "tests/diff/$script.py" "$GPUPROF" "$shared/data"
