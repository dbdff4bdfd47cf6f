#!/bin/sh
# The viewer's API on every real PyTorch trace of ../shared/data/torch and
# torch-large (called by tests/server/check.sh; skipped with a message when
# ../shared is absent): each trace served alone, then every endpoint a page
# asks for answers 200 (the views byte for byte what `gpuprof VIEW --format
# json` prints), the selection of the trace's first step too, and the
# server is still running at the end (under the sanitizer build: no memory
# error on real data). Files that are not traces (execution traces, op maps)
# must be refused at start with the reader's message.
# Closing line "shared_sweep: N passed, N failed".
part=shared_sweep
. tests/server/lib.sh
shared=${GPUPROF_SHARED:-../shared}
if [ ! -d "$shared/data/torch" ]; then
	echo "server: no $shared/data/torch: the real-trace sweep is skipped"
	finish
fi
# same Q ARGS... -- FILE: /api/file/1/Q is `gpuprof ARGS --format json FILE`
same() {
	q=$1; shift
	got=$(status "${url}api/file/1/$q")
	"$GPUPROF" "$@" --format json -q "$f" >"$tmp/want" 2>/dev/null
	[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "$f: $q: HTTP $got, differs from 'gpuprof $*'"
}
for f in $(find "$shared/data/torch" "$shared/data/torch-large" -name '*.json' -o -name '*.json.gz' | sort); do
	if ! "$GPUPROF" info -q "$f" >/dev/null 2>&1; then
		# not a trace: the server refuses it as the CLI does
		"$GPUPROF" serve -q --port 0 "$f" >/dev/null 2>"$tmp/refused" &&
			bad "$f: served, though gpuprof info refuses it" ||
			{ grep -q 'not a trace' "$tmp/refused" && ok || bad "$f: refused without the reader's message"; }
		continue
	fi
	start_server "$f"
	same summary summary
	same steps steps
	same ops ops
	same kernels kernels
	same 'kernels?group_by=kernel%2Bop' kernels --group-by kernel+op
	same memory memory
	for q in 'ops?stack=1' 'memory?curve=1&points=600' 'memory?events=1' timeline \
		'timeline?flows=1&px=300' 'timeline/find?find=a' trace annotations; do
		expect 200 "$f: $q" "${url}api/file/1/$q"
	done
	# the first step the trace has, selected
	"$GPUPROF" steps --format json -q "$f" >"$tmp/want.steps" 2>/dev/null
	first=$(sed -n 's/^ *"step": "\{0,1\}\([0-9][0-9]*\)"\{0,1\},$/\1/p' "$tmp/want.steps" | head -1)
	if [ -n "$first" ]; then
		same "summary?step=$first" summary --step "$first"
		expect 200 "$f: timeline of step $first" "${url}api/file/1/timeline?step=$first"
	fi
	kill -0 "$pid" 2>/dev/null && ok || bad "$f: the server died"
	kill "$pid"
	wait "$pid" 2>/dev/null
	pid=
done
finish
