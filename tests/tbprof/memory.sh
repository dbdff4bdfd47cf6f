#!/bin/sh
# torch-tb-profiler's Memory view: `gpuprof memory --tb-compat` against the
# plugin's asserted values and reference dumps in the shared data folder
# ($GPUPROF_SHARED, default ../shared beside the repository), compared by
# tests/tbprof/check_memory.py (python3, standard library only). Skips
# cleanly when the folder is absent. The closing line is
# "tbmemory: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data/tbprof" ]; then
	echo "tbmemory: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "tbmemory: 0 passed, 0 failed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL tbmemory: python3 is needed to check $shared (tools/setup.sh installs it)"
	echo "tbmemory: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/tbprof/check_memory.py "$GPUPROF" "$shared/data"
