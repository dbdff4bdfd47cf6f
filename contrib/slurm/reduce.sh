#!/bin/sh
# The reduce (contrib/slurm/submit.sh), after every map task succeeded:
# the N summaries merged, FAN_IN at a time (default 64; summaries merge
# associatively, so the tree gives the bytes one merge would), into
# OUTDIR/merged.json, then `gpuprof dist` over it into OUTDIR/dist.txt.
#SBATCH --job-name=gpuprof-reduce
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=01:00:00
set -eu
out=$1
n=$2
G=${GPUPROF:-gpuprof}
fan=${FAN_IN:-64}
got=$(find "$out/summaries" -name '[0-9]*.json' | wc -l)
[ "$got" -eq "$n" ] || { echo "reduce.sh: $got of $n summaries in $out/summaries" >&2; exit 1; }
tmp="$out/reduce.tmp"
rm -rf "$tmp"
mkdir -p "$tmp"
find "$out/summaries" -name '[0-9]*.json' | sort >"$tmp/level0"
lv=0
while [ "$(wc -l <"$tmp/level$lv")" -gt 1 ]; do
	nx=$((lv + 1))
	split -l "$fan" -d -a 6 "$tmp/level$lv" "$tmp/g$lv."
	for g in "$tmp/g$lv".*; do
		# the group's paths, one per line, as operands
		old=$IFS
		IFS='
'
		# shellcheck disable=SC2046
		set -- $(cat "$g")
		IFS=$old
		"$G" -q rank-summary --merge "$@" -o "$g.json"
		echo "$g.json" >>"$tmp/level$nx"
	done
	lv=$nx
done
cp "$(cat "$tmp/level$lv")" "$out/merged.json.tmp"
mv "$out/merged.json.tmp" "$out/merged.json"
rm -rf "$tmp"
"$G" -q dist "$out/merged.json" -o "$out/dist.txt"
echo "reduce.sh: $n ranks merged into $out/merged.json, dist in $out/dist.txt"
