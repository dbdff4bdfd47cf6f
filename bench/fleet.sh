#!/bin/sh
# bench/fleet.sh: the reduce of `gpuprof dist --fleet` over synthetic rank
# summaries (bench/fleet_gen.py: a world of N ranks, 2 steps of 200
# all-reduces and 8 all-gathers each, one straggler), for N in
# BENCH_FLEET_SIZES (default "256 1024 4096"): wall time and peak RSS (the
# best of BENCH_RUNS runs, default 3), per rank, and the target at 4,096
# ranks (<= 30 s, <= 2 GB). Run by `make bench` (and `make bench-fleet`)
# from the repository root with BUILD and GPUPROF set. The summaries are
# made once into build/bench/fleet/N/ and kept.
set -u
: "${BUILD:?set BUILD to the build folder}" "${GPUPROF:?set GPUPROF to the binary}"
SIZES=${BENCH_FLEET_SIZES:-256 1024 4096}
RUNS=${BENCH_RUNS:-3}
PY=${PYTHON:-python3}
DIR=build/bench/fleet
RUSAGE=$BUILD/rusage
mkdir -p "$DIR" || exit 2
if [ ! -x "$RUSAGE" ] || [ bench/rusage.c -nt "$RUSAGE" ]; then
	"${CC:-gcc}" -O2 -o "$RUSAGE" bench/rusage.c || { echo "bench fleet: cannot build rusage"; exit 2; }
fi
printf '%-6s %10s %12s %10s %12s %14s  %s\n' ranks summaries_MB wall_s rss_MB us_per_rank KB_per_rank check
for n in $SIZES; do
	d=$DIR/$n
	if [ ! -f "$d/.done" ] || [ bench/fleet_gen.py -nt "$d/.done" ]; then
		rm -rf "$d"
		"$PY" bench/fleet_gen.py "$n" "$d" --straggler 13:30 || { echo "bench fleet: generator failed"; exit 2; }
		touch "$d/.done"
	fi
	mb=$(du -sm "$d" | cut -f1)
	best=
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		line=$("$RUSAGE" "$GPUPROF" -q dist --fleet "$d"/[0-9]*.json)
		best=$(printf '%s\n%s\n' "$best" "$line" | awk '/wall_s=/ { split($1, a, "="); split($2, b, "=");
			if (!seen || a[2] < w) { w = a[2]; r = b[2] } seen = 1 } END { print w, r }')
		i=$((i + 1))
	done
	# the straggler (rank 13, 30 ms late) is the first row
	first=$("$GPUPROF" -q dist --fleet --format csv --table stragglers "$d"/[0-9]*.json | sed -n 2p | cut -d, -f1,13)
	echo "$n $mb $best $first" | awk '{ check = ($5 == "r00013,compute") ? "straggler found" : "straggler NOT first: " $5
		if ($1 == 4096) check = check sprintf(", target %s (<= 30 s, <= 2048 MB)", ($3 <= 30 && $4 / 1024 <= 2048) ? "PASS" : "MISS")
		printf "%-6d %10d %12.2f %10.0f %12.0f %14.0f  %s\n", $1, $2, $3, $4 / 1024, $3 * 1e6 / $1, $4 / $1, check }'
done
