#!/bin/sh
# Hostile inputs and abuse: every case in cases/*.sh (sourced in name order)
# checks exit status, message, time bound and that nothing is left behind
# (see lib.sh). Closing line: "hostile: N passed, N failed".
set -u
: "${GPUPROF:?}"
dir=$(dirname "$0")
. "$dir/lib.sh"
for c in "$dir"/cases/*.sh; do
	[ -f "$c" ] || continue
	. "$c"
done
echo "hostile: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
