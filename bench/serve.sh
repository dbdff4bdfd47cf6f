#!/bin/sh
# bench/serve.sh: how soon the viewer is usable on a big trace. Starts
# `gpuprof serve -q --port 0 TRACE`, measures the time until it prints its
# URL (the load), then the time of each API answer the pages ask for first
# (curl's time_total, first and second request), and the server's peak RSS.
# Run by `make bench-serve` (GPUPROF = the binary; BENCH_TRACE = the trace,
# default build/bench/synth-1G.json, generated when missing).
set -u
: "${GPUPROF:?set GPUPROF to the binary}"
trace=${BENCH_TRACE:-build/bench/synth-1G.json}
if [ ! -f "$trace" ]; then
	mkdir -p "$(dirname "$trace")"
	echo "bench-serve: generating $trace"
	"$GPUPROF" synth --size 1G -o "$trace" || exit 2
fi
command -v curl >/dev/null 2>&1 || { echo "bench-serve: curl not found"; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-bench-serve.XXXXXX")
now() { date +%s.%N; }
t0=$(now)
"$GPUPROF" serve -q --port 0 "$trace" >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=
while :; do
	url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$tmp/out" 2>/dev/null) && break
	kill -0 "$pid" 2>/dev/null || { cat "$tmp/err"; rm -rf "$tmp"; exit 2; }
	sleep 0.02
done
t1=$(now)
bytes=$(wc -c <"$trace")
printf 'trace %s: %s bytes\n' "$trace" "$bytes"
printf '%-44s %8s %8s %10s\n' request first_s again_s answer_B
total=$(awk "BEGIN { print $t1 - $t0 }")
printf '%-44s %8.3f\n' "load (serve start -> URL printed)" "$total"
for q in summary steps ops kernels memory "memory?curve=1&points=12000" "memory?events=1" timeline \
	"timeline?start_ns=0&end_ns=10000000&px=1200"; do
	a=$(curl -s -o "$tmp/body" -w '%{time_total} %{http_code}' "${url}api/file/1/$q")
	b=$(curl -s -o /dev/null -w '%{time_total}' "${url}api/file/1/$q")
	set -- $a
	[ "$2" = 200 ] || echo "bench-serve: $q: HTTP $2: $(head -c 200 "$tmp/body")"
	printf '%-44s %8.3f %8.3f %10d\n' "$q" "$1" "$b" "$(wc -c <"$tmp/body")"
	total=$(awk "BEGIN { print $total + $1 }")
done
printf '%-44s %8.3f\n' "load + every first answer" "$total"
rss=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
printf 'server peak RSS: %d MB (%.2f of the trace)\n' "$((rss / 1024))" "$(awk "BEGIN { print $rss * 1024 / $bytes }")"
kill "$pid"
wait "$pid"
rm -rf "$tmp"
