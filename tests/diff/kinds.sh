#!/bin/sh
# `gpuprof diff` of Nsight Compute reports and Nsight Systems analyses
# against values found apart (tests/diff/kinds.py: ncu's own exports of a
# real pair of one program, self-comparisons of the shared reports, the
# synthetic pair's freshness). The closing line is
# "diffkinds: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
case $GPUPROF in
/*) ;;
*/*) GPUPROF=$root/$GPUPROF ;;
esac
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL diffkinds: python3 is needed (tools/setup.sh installs it)"
	echo "diffkinds: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/diff/kinds.py "$GPUPROF" "$shared/data"
