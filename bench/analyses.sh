# bench/analyses.sh: the analyses next to the import, sourced by
# bench/run.sh (which defines best_of, $GPUPROF, $DIR, $LIST and $RUNS).
#   analyses_table  every trace analysis on each plain file of $LIST: wall,
#                   peak RSS, time / `info` on the same file; and the same
#                   command on the .gz / on the plain file for `summary`
#   callgrind_rows  instructions per byte of `info`, `summary` and
#                   `rank-summary` (and its ratio to `info`'s) on a 10 MB
#                   synthetic trace, start-up (examples/tiny.json) subtracted:
#                   stable on a loaded machine, unlike wall time
#   fixed_cost_row  `summary` of a 1 MB synthetic trace, wall
# Each prints PASS/MISS lines for its targets.
ANALYSES="summary steps ops kernels memory dist top idle launches sync flops critical-path counters sequences export"

# one_cmd NAME FILE: the command line of analysis NAME on FILE
one_cmd() {
	case $1 in
	export) echo "$GPUPROF -q export pprof $2 -o $DIR/bench-export.pb.gz" ;;
	*) echo "$GPUPROF -q $1 $2" ;;
	esac
}

analyses_table() {
	out=$DIR/analyses.txt
	: >"$out"
	while read -r plain gz label; do
		json=$(wc -c <"$plain" | tr -d ' ')
		echo "bench: analyses of $label" >&2
		for a in info $ANALYSES; do
			# shellcheck disable=SC2046
			set -- $(best_of $(one_cmd "$a" "$plain"))
			[ "$3" -eq 0 ] || set -- - "$2" "$3"
			echo "$label plain $a $json $1 $2" >>"$out"
		done
		set -- $(best_of $(one_cmd summary "$gz"))
		[ "$3" -eq 0 ] || set -- - "$2" "$3"
		echo "$label gz summary $json $1 $2" >>"$out"
	done <"$LIST"
	rm -f "$DIR/bench-export.pb.gz"
	awk '
	function r(a, b) { return (a == "-" || b == "-" || b <= 0) ? "-" : sprintf("%.2f", a / b) }
	BEGIN { printf "%-30s %5s %-8s %8s %8s %7s %8s\n", "file", "kind", "command", "wall_s", "rss_MB", "rss/sz", "/info" }
	{
		label = $1; kind = $2; cmd = $3; json = $4; t = $5; rss = $6
		if (kind == "plain" && cmd == "info") info[label] = t
		if (kind == "plain" && cmd == "summary") { sum[label] = t; sumrss[label] = rss }
		base = kind == "gz" ? sum[label] : info[label]
		printf "%-30s %5s %-8s %8s %8.1f %7.3f %8s\n", label, kind, cmd, t == "-" ? "-" : sprintf("%.3f", t), rss / 1024,
			rss * 1024 / json, (kind == "plain" && cmd == "info") ? "" : (kind == "gz" ? r(t, base) " of plain" : r(t, base))
		if (t == "-") { miss[++nm] = cmd " failed on " label; next }
		if (kind == "plain" && cmd != "info") {
			s = sprintf("%-8s <= 1.3 x info    %s", cmd, label)
			if (t <= 1.3 * base) pass[++np] = s; else miss[++nm] = s
		}
		if (kind == "plain" && (cmd == "idle" || cmd == "launches" || cmd == "sync" || cmd == "flops" ||
		    cmd == "critical-path" || cmd == "counters" || cmd == "sequences")) {
			s = sprintf("%-8s <= 1.5 x summary, rss <= summary %s", cmd, label)
			if (t <= 1.5 * sum[label] && rss <= sumrss[label]) pass[++np] = s; else miss[++nm] = s
		}
		if (kind == "gz") {
			s = sprintf("summary  .gz <= 1.05 x plain %s", label)
			if (t <= 1.05 * base) pass[++np] = s; else miss[++nm] = s
		}
		if (kind == "plain" && cmd == "summary" && json >= 50e6) {
			s = sprintf("summary  rss <= 0.25 x json %s", label)
			if (rss * 1024 <= 0.25 * json) pass[++np] = s; else miss[++nm] = s
		}
	}
	END {
		print "targets:"
		for (i = 1; i <= np; i++) print "  PASS " pass[i]
		for (i = 1; i <= nm; i++) print "  MISS " miss[i]
		printf "targets: %d pass, %d miss\n", np, nm
	}' "$out"
}

# instructions CMD...: the instruction count callgrind reports for CMD
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ','
}

callgrind_rows() {
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "bench: valgrind not installed (Debian valgrind): instruction counts skipped"
		return 0
	fi
	f=$DIR/synth-10M.json
	[ -f "$f" ] || "$GPUPROF" -q synth --size 10M -o "$f" || return 1
	tiny=examples/tiny.json # 11 KB: start-up, linking, the threads
	json=$(wc -c <"$f" | tr -d ' ')
	tj=$(wc -c <"$tiny" | tr -d ' ')
	for a in info summary rank-summary; do
		o=
		[ "$a" = rank-summary ] && o="-o $DIR/bench-rank-summary.json"
		# shellcheck disable=SC2086
		n=$(GPUPROF_THREADS=1 instructions "$GPUPROF" -q "$a" "$f" $o)
		# shellcheck disable=SC2086
		z=$(GPUPROF_THREADS=1 instructions "$GPUPROF" -q "$a" "$tiny" $o)
		echo "$a $n $z"
	done | awk -v json="$json" -v tj="$tj" '
	BEGIN { printf "%-12s %14s %12s %10s %8s\n", "command", "instructions", "start-up", "per_byte", "/info" }
	{ pb = ($2 - $3) / (json - tj)
	  if ($1 == "info") info = $2
	  printf "%-12s %14d %12d %10.2f %8s\n", $1, $2, $3, pb, $1 == "info" ? "" : sprintf("%.3f", $2 / info)
	  if ($1 == "rank-summary") # the map: at the import cost
		line[NR] = sprintf("  %s rank-summary <= 1.03 x info instructions (callgrind, 10 MB synthetic, one thread)",
				   $2 <= 1.03 * info ? "PASS" : "MISS")
	  else {
		lim = $1 == "info" ? 8 : 11
		line[NR] = sprintf("  %s %-8s <= %d instructions per byte (callgrind, 10 MB synthetic, one thread)",
				   pb <= lim ? "PASS" : "MISS", $1, lim)
	  } }
	END { print "targets:"; for (i = 1; i <= NR; i++) print line[i] }'
	rm -f "$DIR/bench-rank-summary.json"
}

fixed_cost_row() {
	f=$DIR/synth-1M.json
	[ -f "$f" ] || "$GPUPROF" -q synth --size 1M -o "$f" || return 1
	set -- $(best_of "$GPUPROF" -q summary "$f")
	echo "$1 $3" | awk '{ printf "summary of a 1 MB trace: %s s\ntargets:\n  %s summary of 1 MB <= 15 ms\n", $1,
		($2 == 0 && $1 <= 0.015) ? "PASS" : "MISS" }'
}

# `gpuprof nsys FILE kernels` next to the sqlite3 query of the same sums on
# an export grown to about a million kernels (the shared two-GPU export's
# 4,010 kernels repeated 250 times, shifted in time); target: 1.5 x.
NSYS_SRC=../shared/data/nsys/exports/nsys-ai__mfu_2gpu_before__2026.2.1.sqlite
nsys_row() {
	if [ ! -f "$NSYS_SRC" ] || ! command -v sqlite3 >/dev/null 2>&1; then
		echo "bench: $NSYS_SRC or sqlite3 missing: the nsys row is skipped"
		return 0
	fi
	f=$DIR/nsys-1M-kernels.sqlite
	if [ ! -f "$f" ]; then
		cp "$NSYS_SRC" "$f.tmp" && chmod u+w "$f.tmp" || return 1
		k=CUPTI_ACTIVITY_KIND_KERNEL
		cols=$(sqlite3 "$f.tmp" "select group_concat(name, ',') from pragma_table_info('$k')")
		sel=$(echo "$cols" | sed 's/^start,end,/start + k * 10000000, end + k * 10000000,/')
		sqlite3 "$f.tmp" "insert into $k ($cols) select $sel from $k,
			(with recursive c(k) as (select 1 union all select k + 1 from c where k < 249) select k from c)" &&
			mv "$f.tmp" "$f" || { rm -f "$f.tmp"; return 1; }
	fi
	q="select s.value, count(*), sum(k.end - k.start), avg(k.end - k.start), min(k.end - k.start),
		max(k.end - k.start) from CUPTI_ACTIVITY_KIND_KERNEL k join StringIds s on s.id = k.shortName
		group by k.shortName order by 3 desc"
	set -- $(best_of "$GPUPROF" -q nsys "$f" kernels)
	ours=$1
	set -- $(best_of sqlite3 "$f" "$q")
	echo "$ours $1" | awk '{ printf "nsys kernels (1M kernels): %s s, sqlite3 query %s s, ratio %.2f\ntargets:\n  %s nsys kernels <= 1.5 x sqlite3\n",
		$1, $2, $1 / $2, $1 <= 1.5 * $2 ? "PASS" : "MISS" }'
}
