#!/bin/sh
# torch-tb-profiler's Module view: `gpuprof modules --tb-compat` against the
# plugin's own Module view on six traces of the shared data folder
# ($GPUPROF_SHARED, default ../shared beside the repository), compared by
# tests/tbprof/modules.py (standard library only). Skips cleanly when the
# folder is absent. The closing line is "tbmodules: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data/tbprof/module_view" ]; then
	echo "tbmodules: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "tbmodules: 0 passed, 0 failed"
	exit 0
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3
exec "$py" tests/tbprof/modules.py "$GPUPROF" "$shared/data"
