#!/bin/sh
# AMD matrix-core kernels as Tensor Core kernels and the AMP advice, on the
# AMD traces of the shared data folder ($GPUPROF_SHARED, default ../shared
# beside the repository), checked by tests/tbprof/amd.py (python3, standard
# library only). Skips cleanly when the folder is absent. The closing line
# is "amd: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data/torch" ]; then
	echo "amd: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "amd: 0 passed, 0 failed"
	exit 0
fi
exec python3 tests/tbprof/amd.py "$GPUPROF" "$shared/data"
