#!/bin/sh
# The nsys stage: `gpuprof nsys analyze` on the roboflow fixtures and derived
# variants in the shared data folder ($GPUPROF_SHARED, default ../shared
# beside the repository), the exact `nsys stats` argument vector and version
# handling through a fake `nsys` (a shell script put first on PATH), error
# cases, and `gpuprof nsys FILE.sqlite` on the real exports (values checked
# against SQL run independently by python3's sqlite3 module) and on tiny
# exports made at test time. The driver is tests/nsys/check.py (python3,
# standard library only). The closing line is "nsys: N passed, N failed".
# The shared-data cases skip cleanly when the folder is absent; the
# self-made cases always run.
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL nsys: python3 is needed (tools/setup.sh installs it)"
	echo "nsys: 0 passed, 1 failed"
	exit 1
fi
case $GPUPROF in /*) ;; *) GPUPROF=$root/$GPUPROF ;; esac
exec python3 tests/nsys/check.py "$GPUPROF" "$shared/data/nsys"
