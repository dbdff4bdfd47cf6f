#!/bin/sh
# Export checks: `gpuprof export pprof|folded|speedscope` and `gpuprof top`
# on the small hand-made traces beside this script (expected self and
# inclusive times computed by hand in check.py), decoding pprof output with
# protoc and tests/export/profile.proto, and on the real traces in
# ../shared/data/torch-large when present. Prints "export: N passed, N failed".
set -u
if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL export: python3 is needed (tools/setup.sh installs it)"
	echo "export: 0 passed, 1 failed"
	exit 1
fi
exec python3 tests/export/check.py "$GPUPROF" "${GPUPROF_SHARED:-$(pwd)/../shared}"
