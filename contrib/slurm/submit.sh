#!/bin/sh
# gpuprof's distributed view of many ranks on Slurm: one array job maps
# `gpuprof rank-summary` over the traces (one task per trace, map.sh), one
# job that depends on it (afterok) merges the summaries and runs
# `gpuprof dist` (reduce.sh).
#
#   contrib/slurm/submit.sh TRACELIST OUTDIR [SBATCH-OPTION...]
#
# TRACELIST: a file of trace paths, one per line, as the compute nodes see
# them; OUTDIR: on a file system every node sees. Further options go to
# both sbatch calls (--account, --partition, ...). GPUPROF names the
# binary (default: gpuprof on PATH); MAX_PARALLEL caps the array tasks
# running at once (default 64); RETRIES (default 2) re-runs a failed map
# task in place. Prints the two job ids.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 TRACELIST OUTDIR [SBATCH-OPTION...]" >&2
	exit 2
fi
list=$1
out=$2
shift 2
[ -r "$list" ] || { echo "$0: $list: cannot read" >&2; exit 2; }
n=$(grep -c . "$list" || true)
[ "$n" -gt 0 ] || { echo "$0: $list: no trace listed" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/summaries" "$out/logs"
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
export GPUPROF="${GPUPROF:-gpuprof}" RETRIES="${RETRIES:-2}"
map=$(sbatch --parsable --array="0-$((n - 1))%${MAX_PARALLEL:-64}" \
	--output="$out/logs/map-%a.log" --export=ALL "$@" \
	"$here/map.sh" "$list" "$out")
reduce=$(sbatch --parsable --dependency="afterok:${map%%;*}" \
	--output="$out/logs/reduce.log" --export=ALL "$@" \
	"$here/reduce.sh" "$out" "$n")
echo "map job $map ($n tasks), reduce job $reduce"
