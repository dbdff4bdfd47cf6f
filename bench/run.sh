#!/bin/sh
# bench/run.sh: performance figures for `gpuprof info` (see bench/README.md).
# Run by `make bench` from the repository root with BUILD (the build folder)
# and GPUPROF (absolute path of the binary). Environment:
#   BENCH_SIZES  synthetic sizes to test (default "100M 1G 4G")
#   BENCH_RUNS   runs per measurement, best wall time kept (default 3)
#   BENCH_PREV   1 = also re-run build/bench/gpuprof.prev on every file
#   CC           compiler for bench/rusage.c (default gcc)
#   BENCH_ONLY   "ncu" = only the `gpuprof ncu list` row (synthetic report),
#                "import" = only the `info` table, "analyses" = only the
#                analyses, "callgrind" = only the instruction counts,
#                "diff" = only the `gpuprof diff` row (two synthetic traces)
set -u
: "${BUILD:?set BUILD to the build folder}" "${GPUPROF:?set GPUPROF to the binary}"
SIZES=${BENCH_SIZES:-100M 1G 4G}
RUNS=${BENCH_RUNS:-3}
CC=${CC:-gcc}
DIR=build/bench
SHARED_LARGE=../shared/data/torch-large
mkdir -p "$DIR" || exit 2

RUSAGE=$BUILD/rusage
if [ ! -x "$RUSAGE" ] || [ bench/rusage.c -nt "$RUSAGE" ]; then
	"$CC" -O2 -o "$RUSAGE" bench/rusage.c || { echo "bench: cannot build rusage"; exit 2; }
fi
INFLATE=$BUILD/inflate-bench
[ -x "$INFLATE" ] || INFLATE=

# ---- measuring ----
# best_of CMD...: prints "wall maxrss_kb rc" of the fastest of $RUNS runs
# (rc: the first non-zero exit status seen, else 0).
best_of() {
	i=0
	best=
	while [ "$i" -lt "$RUNS" ]; do
		line=$("$RUSAGE" "$@" 2>/dev/null)
		best=$(printf '%s\n%s\n' "$best" "$line" | awk '
			/wall_s=/ { split($1, a, "="); split($2, b, "="); split($3, c, "=")
				if (!seen || a[2] < w) { w = a[2]; r = b[2] }
				if (c[2] != 0 && !bad) bad = c[2]; seen = 1 }
			/^[0-9.]+ [0-9]+ [0-9]+$/ { if (!seen || $1 < w) { w = $1; r = $2 }
				if ($3 != 0 && !bad) bad = $3; seen = 1 }
			END { if (seen) printf "%s %s %d\n", w, r, bad }')
		i=$((i + 1))
	done
	echo "${best:-- 0 1}"
}

# ---- ncu row: `gpuprof ncu list` on a ~100 MB synthetic .ncu-rep ----
# (bench/mkncu.py, cached; targets: wall <= 0.15 s, issue 14's; peak RSS <= 2 x
# file size)
ncu_row() {
	r=$DIR/synth-ncu-100M.ncu-rep
	if [ ! -f "$r" ] || [ bench/mkncu.py -nt "$r" ]; then
		echo "bench: generating $r" >&2
		python3 bench/mkncu.py "$r" 100 || { echo "bench: mkncu failed"; return 1; }
	fi
	sz=$(wc -c <"$r" | tr -d ' ')
	set -- $(best_of "$GPUPROF" --quiet ncu list "$r")
	echo "$1 $2 $3 $sz" | awk '{
		printf "%-36s %13s %8s %8s %7s\n", "file", "bytes", "ours_s", "rss_MB", "rss/sz"
		ok = $3 == 0
		printf "%-36s %13d %8s %8.1f %7.2f\n", "synth-ncu-100M (ncu list)", $4, ok ? $1 : "-", $2 / 1024, $2 * 1024 / $4
		printf "targets:\n  %s ncu list wall <= 0.15 s\n  %s ncu list rss <= 2 x file\n",
			(ok && $1 <= 0.15) ? "PASS" : "MISS", (ok && $2 * 1024 <= 2 * $4) ? "PASS" : "MISS" }'
}
. bench/analyses.sh
case ${BENCH_ONLY:-} in
ncu)
	ncu_row
	exit 0
	;;
callgrind)
	callgrind_rows
	exit 0
	;;
esac

# ---- diff row: `gpuprof diff` of two synthetic traces of the first size
# (seeds 1 and 2) against one `summary` of the first (targets: wall <= 2.2 x
# the summary's, peak RSS <= 2 x the summary's) ----
diff_row() {
	s=${SIZES%% *}
	a=$DIR/synth-$s.json b=$DIR/synth-$s-seed2.json
	[ -f "$a" ] || "$GPUPROF" -q synth --size "$s" -o "$a" || return 1
	[ -f "$b" ] || "$GPUPROF" -q synth --size "$s" --seed 2 -o "$b" || return 1
	set -- $(best_of "$GPUPROF" --quiet summary "$a")
	sw=$1 sr=$2 src=$3
	set -- $(best_of "$GPUPROF" --quiet diff "$a" "$b")
	echo "$sw $sr $src $1 $2 $3 $s" | awk '{
		printf "%-36s %8s %8s %8s %8s %7s %7s\n", "diff (synth " $7 ", seeds 1, 2)", "sum_s", "sum_MB", "diff_s", "diff_MB", "t/sum", "m/sum"
		ok = $3 == 0 && $6 == 0
		printf "%-36s %8s %8.1f %8s %8.1f %7.2f %7.2f\n", "", $1, $2 / 1024, $4, $5 / 1024, ok ? $4 / $1 : 0, ok ? $5 / $2 : 0
		printf "targets:\n  %s diff wall <= 2.2 x summary\n  %s diff rss <= 2 x summary\n",
			(ok && $4 <= 2.2 * $1) ? "PASS" : "MISS", (ok && $5 <= 2 * $2) ? "PASS" : "MISS" }'
}
if [ "${BENCH_ONLY:-}" = diff ]; then
	diff_row
	exit 0
fi

# ---- inputs: "plain gz label" per line ----
LIST=$DIR/files.txt
: >"$LIST"
for s in $SIZES; do
	p=$DIR/synth-$s.json
	if [ ! -f "$p" ]; then
		echo "bench: generating $p" >&2
		"$GPUPROF" -q synth --size "$s" -o "$p" || { echo "bench: synth failed"; exit 2; }
	fi
	if [ ! -f "$p.gz" ]; then
		echo "bench: generating $p.gz" >&2
		"$GPUPROF" -q synth --size "$s" --gzip -o "$p.gz" || { echo "bench: synth failed"; exit 2; }
	fi
	echo "$p $p.gz synth-$s" >>"$LIST"
done
if [ -d "$SHARED_LARGE" ]; then
	for z in "$SHARED_LARGE"/*.json.gz; do
		[ -f "$z" ] || continue
		name=$(basename "$z" .json.gz)
		p=$DIR/real-$name.json
		if [ ! -f "$p" ]; then
			gzip -dc "$z" >"$p.tmp" && mv "$p.tmp" "$p" || { rm -f "$p.tmp"; continue; }
		fi
		echo "$p $z $name" >>"$LIST"
	done
else
	echo "bench: $SHARED_LARGE not found: real traces skipped" >&2
fi

# inflate_time FILE: best "seconds" reported by inflate-bench, or "-".
inflate_time() {
	[ -n "$INFLATE" ] || { echo -; return; }
	i=0
	t=
	while [ "$i" -lt "$RUNS" ]; do
		s=$("$INFLATE" "$1" 2>/dev/null | sed -n 's/.*seconds=\([0-9.eE+-]*\).*/\1/p')
		[ -n "$s" ] && t=$(printf '%s\n%s\n' "$t" "$s" | awk 'NF { if (!n || $1 < m) m = $1; n = 1 } END { if (n) print m }')
		i=$((i + 1))
	done
	echo "${t:--}"
}

RESULTS=$DIR/results.txt
: >"$RESULTS"
PREV=$DIR/gpuprof.prev
LAST=$DIR/last.txt
# measure FILE, with $label, $json (uncompressed bytes) and $kind (plain|gz) set:
# appends "label kind json ours_s rss_kb cat_s inflate_s prev_s file_bytes".
measure() {
	f=$1
	set -- $(best_of "$GPUPROF" info --quiet "$f")
	ours=$1 rss=$2 rc=$3
	[ "$rc" -eq 0 ] || ours=-
	set -- $(best_of cat "$f")
	catt=$1
	inf=-
	[ "$kind" = gz ] && inf=$(inflate_time "$f")
	prevt=-
	if [ "${BENCH_PREV:-}" = 1 ] && [ -x "$PREV" ]; then
		set -- $(best_of "$PREV" info --quiet "$f")
		[ "$3" -eq 0 ] && prevt=$1
	elif [ -f "$LAST" ]; then
		prevt=$(awk -v l="$label" -v k="$kind" '$1 == l && $2 == k { print $4 }' "$LAST")
		[ -n "$prevt" ] || prevt=-
	fi
	echo "$label $kind $json $ours $rss $catt $inf $prevt $(wc -c <"$f" | tr -d ' ')" >>"$RESULTS"
}

if [ "${BENCH_ONLY:-}" = analyses ]; then
	analyses_table
	exit 0
fi
echo "bench: $GPUPROF, $RUNS runs each, best wall time" >&2
while read -r plain gz label; do
	json=$(wc -c <"$plain" | tr -d ' ')
	echo "bench: $label" >&2
	kind=plain
	measure "$plain"
	kind=gz
	measure "$gz"
done <"$LIST"

# ---- report ----
awk '
function f(x, fmt) { return x == "-" ? "-" : sprintf(fmt, x) }
function ratio(a, b) { return (a == "-" || b == "-" || b <= 0) ? "-" : sprintf("%.2f", a / b) }
BEGIN {
	printf "%-36s %5s %13s %8s %6s %8s %7s %7s %8s %9s %7s %7s\n", "file", "kind", "json_bytes",
		"ours_s", "GB/s", "rss_MB", "rss/sz", "cat_s", "infl_s", "ours/base", "gz/pl", "vs_prev"
}
{
	label = $1; kind = $2; json = $3; ours = $4; rss = $5; cat = $6; inf = $7; prev = $8
	gbps = (ours == "-" || ours <= 0) ? "-" : sprintf("%.2f", json / ours / 1e9)
	rssmb = (ours == "-") ? "-" : sprintf("%.1f", rss / 1024)
	rsr = (ours == "-") ? "-" : sprintf("%.3f", rss * 1024 / json)
	base = (kind == "gz" && inf != "-") ? inf : cat
	gzpl = "-"
	if (kind == "plain") plain_t[label] = ours
	else gzpl = ratio(ours, plain_t[label])
	printf "%-36s %5s %13s %8s %6s %8s %7s %7s %8s %9s %7s %7s\n", label, kind, json,
		f(ours, "%.3f"), gbps, rssmb, rsr, f(cat, "%.3f"), f(inf, "%.3f"),
		ratio(ours, base), gzpl, ratio(ours, prev)
	# targets
	if (ours == "-") { na++; next }
	if (kind == "plain") {
		want = label ~ /^synth-/ ? 1.5 : 1
		t = "speed >= " want " GB/s      " label
		if (json / ours >= want * 1e9) pass[++np] = t; else miss[++nm] = t
	} else if (plain_t[label] != "-" && plain_t[label] > 0) {
		t = "gz <= 1.05 x plain     " label
		if (ours <= 1.05 * plain_t[label]) pass[++np] = t; else miss[++nm] = t
	}
	t = "rss <= 0.3 x json      " label " " kind
	if (rss * 1024 <= 0.3 * json) pass[++np] = t; else miss[++nm] = t
}
END {
	print ""
	print "targets:"
	for (i = 1; i <= np; i++) print "  PASS " pass[i]
	for (i = 1; i <= nm; i++) print "  MISS " miss[i]
	if (na) printf "  n/a  %d measurements: `gpuprof info` failed or is not built yet\n", na
	printf "targets: %d pass, %d miss\n", np, nm
}' "$RESULTS"

echo
ncu_row
if [ "${BENCH_ONLY:-}" != import ]; then
	echo
	analyses_table
	echo
	diff_row
	echo
	fixed_cost_row
	echo
	nsys_row
	echo
	callgrind_rows
fi

# keep this run for the next comparison
awk '{ print $1, $2, $3, $4, $5 }' "$RESULTS" >"$LAST.tmp" && mv "$LAST.tmp" "$LAST"
cp "$GPUPROF" "$PREV.tmp" && mv "$PREV.tmp" "$PREV"
echo "bench: results kept in $LAST, binary in $PREV" >&2
