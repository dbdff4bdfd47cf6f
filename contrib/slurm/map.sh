#!/bin/sh
# One array task of the map (contrib/slurm/submit.sh): the rank summary of
# line SLURM_ARRAY_TASK_ID + 1 of TRACELIST into
# OUTDIR/summaries/NNNNN.json, written atomically by gpuprof. A failure is
# tried again RETRIES times (default 2); gpuprof's exit status 2 (an input
# it refuses) is not retried.
#SBATCH --job-name=gpuprof-map
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
set -eu
list=$1
out=$2
i=${SLURM_ARRAY_TASK_ID:?map.sh runs as a task of an array job}
trace=$(sed -n "$((i + 1))p" "$list")
[ -n "$trace" ] || { echo "map.sh: $list: no line $((i + 1))" >&2; exit 2; }
sum=$(printf '%s/summaries/%05d.json' "$out" "$i")
tries=0
while :; do
	rc=0
	"${GPUPROF:-gpuprof}" -q rank-summary "$trace" -o "$sum" || rc=$?
	[ "$rc" -eq 0 ] && exit 0
	tries=$((tries + 1))
	if [ "$rc" -eq 2 ] || [ "$tries" -gt "${RETRIES:-2}" ]; then
		echo "map.sh: $trace: rank-summary failed (exit $rc, $tries tries)" >&2
		exit "$rc"
	fi
	sleep $((tries * 5))
done
