#!/bin/sh
# Real-data checks: `gpuprof info --format json` on the traces in the shared
# data folder ($GPUPROF_SHARED, default ../shared beside the repository),
# compared with the numbers written in their PROVENANCE.md files and with
# counts made independently by tests/shared/check.py (python3, standard
# library only). Skips cleanly when the folder is absent. The closing line
# is "shared: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data" ]; then
	echo "shared: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "shared: 0 passed, 0 failed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL shared: python3 is needed to check $shared (tools/setup.sh installs it)"
	echo "shared: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/shared/check.py "$GPUPROF" "$shared/data"
