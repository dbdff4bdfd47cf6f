#!/bin/sh
# torch-tb-profiler replay for the Distributed view: `gpuprof dist
# --tb-compat` on the upstream distributed test cases
# (shared/data/tbprof/cases/test_distributed_*) against the values the tests
# assert and the reference dumps, and both modes on the real 2-rank HTA pair
# (shared/data/torch/hta/tests/data/trace_filter/sampled_rank-{0,1}) against
# facts the checker computes from the raw JSON. The comparison is
# tests/tbprof/dist.py (python3, standard library only). Skips cleanly when
# the shared folder ($GPUPROF_SHARED, default ../shared beside the
# repository) is absent. The closing line is "tbdist: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data/tbprof" ]; then
	echo "tbdist: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "tbdist: 0 passed, 0 failed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL tbdist: python3 is needed to check $shared (tools/setup.sh installs it)"
	echo "tbdist: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/tbprof/dist.py "$GPUPROF" "$shared/data"
