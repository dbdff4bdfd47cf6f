#!/bin/sh
# torch-tb-profiler replay for the overview: `gpuprof steps` and
# `gpuprof summary` with --tb-compat on every upstream test case
# (shared/data/tbprof/cases), the ResNet-50 sample traces
# (shared/data/torch/tb_plugin_samples) against the reference dumps
# (shared/data/tbprof/samples) and the end-to-end golden overview
# (shared/data/tbprof/upstream/result_check_file.txt). The comparison is
# tests/tbprof/steps.py (python3, standard library only). Skips cleanly
# when the shared folder ($GPUPROF_SHARED, default ../shared beside the
# repository) is absent. The closing line is "tbsteps: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if [ ! -d "$shared/data/tbprof" ]; then
	echo "tbsteps: skipped: no shared data folder at $shared (set GPUPROF_SHARED)"
	echo "tbsteps: 0 passed, 0 failed"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL tbsteps: python3 is needed to check $shared (tools/setup.sh installs it)"
	echo "tbsteps: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/tbprof/steps.py "$GPUPROF" "$shared/data"
