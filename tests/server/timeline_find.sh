#!/bin/sh
# API tests of the timeline's search (called by tests/server/check.sh; run
# from the repository root with GPUPROF set):
#   - GET /api/file/ID/timeline/find on tests/server/timeline_more.json
#     (answers written by hand from the fixture) and on
#     examples/resnet_like.json.gz, against an independent count
#     (tests/server/timeline_find.py: python3 over the decompressed JSON,
#     events of ph X whose name contains the text, ASCII letters folded):
#     totals, the first matches' names, times and durations, the per-name
#     counts, a window, limit and truncation, a text in other case;
#   - find=TEXT on /timeline marks exactly the matching events, and the
#     marked events plus the spans' matches are the find's total;
#   - bad parameters (400), an unknown file (404), a report (400).
# Closing line "timeline_find: N passed, N failed".
part=timeline_find
. tests/server/lib.sh
has() { w=$1; shift; for l in "$@"; do grep -qxF -- "$l" "$tmp/body" || { bad "$w: no line '$l' in: $(head -c 2000 "$tmp/body")"; return; }; done; ok; }
fix=tests/server/timeline_more.json
ex=examples/resnet_like.json.gz
report=tests/golden/_inputs/tiny.ncu-rep # written by tests/ncu/mkreport.py
[ -f "$report" ] || report=
# shellcheck disable=SC2086
start_server "$fix" "$ex" $report
f1=${url}api/file/1/timeline
f2=${url}api/file/2/timeline

# ---- by hand, on timeline_more.json (times from its 1 ms start): the
# slices late_op (row 2, pid 30, 0-10 µs) and w_op (row 3, 5-25 µs) hold
# "op"; w_op is the longer, so it leads the names at one match each
expect 200 "find OP" "$f1/find?find=OP"
has "find OP" \
	'  "find": {"text": "OP", "trace_start_ns": 1000000, "start_ns": null, "end_ns": null, "limit": 1000},' \
	'  "total": 2, "truncated": false, "names_total": 2,' \
	'   {"name": "w_op", "count": 1, "total_dur": 20000},' \
	'   {"name": "late_op", "count": 1, "total_dur": 10000}' \
	'   {"row": 2, "track": 4, "ts": 0, "dur": 10000, "depth": 0, "kind": "cpu_op", "name": "late_op"},' \
	'   {"row": 3, "track": 1, "ts": 5000, "dur": 20000, "depth": 0, "kind": "cpu_op", "name": "w_op"}'
# "k": the two cudaLaunchKernel (20 and 60 µs), k8 (30 µs), k0 (70 µs); the
# window [25, 65) µs keeps k8 and the second launch (the first ends at 24)
expect 200 "find k" "$f1/find?find=k"
has "find k" '  "total": 4, "truncated": false, "names_total": 3,' \
	'   {"name": "cudaLaunchKernel", "count": 2, "total_dur": 8000},'
expect 200 "find k window" "$f1/find?find=k&start_ns=25000&end_ns=65000"
has "find k window" \
	'  "find": {"text": "k", "trace_start_ns": 1000000, "start_ns": 25000, "end_ns": 65000, "limit": 1000},' \
	'  "total": 2, "truncated": false, "names_total": 2,' \
	'   {"row": 8, "track": 2, "ts": 30000, "dur": 5000, "depth": 0, "kind": "kernel", "name": "k8"},' \
	'   {"row": 11, "track": 0, "ts": 60000, "dur": 4000, "depth": 1, "kind": "cuda_runtime", "name": "cudaLaunchKernel"}'
expect 200 "find k limit 1" "$f1/find?find=k&limit=1"
has "find k limit 1" '  "total": 4, "truncated": true, "names_total": 3,' \
	'   {"row": 7, "track": 0, "ts": 20000, "dur": 4000, "depth": 1, "kind": "cuda_runtime", "name": "cudaLaunchKernel"}'
[ "$(grep -c '"row"' "$tmp/body")" = 1 ] && ok || bad "find k limit 1: not one match"
expect 200 "find k limit 0" "$f1/find?find=k&limit=0"
has "find k limit 0" '  "total": 4, "truncated": true, "names_total": 3,' '  "matches": []'
# instants are not slices: "mark" and "[memory]" are instants' names
expect 200 "find an instant" "$f1/find?find=mark"
has "find an instant" '  "total": 0, "truncated": false, "names_total": 0,' '  "names": [],' '  "matches": []'
# the highlight: k8 and k0 are events at 100 px, the launches too
expect 200 "timeline find=k" "$f1?px=100&find=k"
[ "$(grep -c '"match": true' "$tmp/body")" = 4 ] && ok || bad "timeline find=k: not 4 marked events: $(grep -c '"match": true' "$tmp/body")"
has "timeline find=k" '    {"type": "event", "depth": 0, "row": 8, "ts": 30000, "dur": 5000, "kind": "kernel", "name": "k8", "match": true}'
expect 200 "timeline without find" "$f1?px=100"
grep -q '"match' "$tmp/body" && bad "timeline without find: has a match" || ok
expect 200 "timeline find=''" "$f1?px=100&find="
grep -q '"match' "$tmp/body" && bad "timeline find='': has a match" || ok

# ---- against python3's count over the JSON
if command -v python3 >/dev/null 2>&1; then
	# ref ID TEXT(url-encoded) TEXT [A B]: find and compare
	ref() {
		id=$1; q=$2; text=$3; shift 3
		w=; [ $# -eq 2 ] && w="&start_ns=$1&end_ns=$2"
		f=$fix; [ "$id" = 2 ] && f=$ex
		expect 200 "find $text $*" "${url}api/file/$id/timeline/find?find=$q$w&limit=${LIMIT:-1000}"
		cp "$tmp/body" "$tmp/find.json"
		r=$(python3 tests/server/timeline_find.py find "$f" "$tmp/find.json" "$text" "$@" 2>&1)
		[ "$r" = ok ] && ok || bad "find $text $* on $f: $r"
	}
	ref 1 OP OP
	ref 1 k k
	ref 1 k k 25000 65000
	ref 1 STEP STEP
	ref 2 mm mm
	ref 2 'ATEN%3A%3ACONV' 'ATEN::CONV'
	ref 2 cudaLaunchKernel cudaLaunchKernel
	ref 2 'CudnnBatchNorm' 'CudnnBatchNorm'
	ref 2 'evaluate_function%3A%20' 'evaluate_function: '
	ref 2 nothing_like_this nothing_like_this
	ref 2 mm mm 4000000 6000000
	ref 2 cudaLaunchKernel cudaLaunchKernel 0 1000
	LIMIT=10000 ref 2 a a
	LIMIT=5 ref 2 cudaLaunchKernel cudaLaunchKernel
	LIMIT=0 ref 2 mm mm
	# the highlight of a window: exactly the matching events marked, and as
	# many marks (events and spans' counts) as the find's total
	for case in "1 k 0 100000 100" "1 o 0 100000 7" "2 mm 0 9000000 2000" "2 aten 4000000 4500000 300" "2 nccl 0 9000000 50"; do
		# shellcheck disable=SC2086
		set -- $case
		expect 200 "mark $case" "${url}api/file/$1/timeline?find=$2&start_ns=$3&end_ns=$4&px=$5"
		cp "$tmp/body" "$tmp/tl.json"
		expect 200 "mark $case: find" "${url}api/file/$1/timeline/find?find=$2&start_ns=$3&end_ns=$4&limit=0"
		r=$(python3 tests/server/timeline_find.py mark "$tmp/tl.json" "$tmp/body" "$2" 2>&1)
		[ "$r" = ok ] && ok || bad "mark $case: $r"
	done
else
	echo "server timeline_find: python3 not found: no independent count"
fi

# ---- with a step selection: the matches of the window's trace (its
# chrome-trace JSON from /trace?step=3, counted by python3), times from the
# window's start; a bad selection is the CLI's message
if command -v python3 >/dev/null 2>&1; then
	expect 200 "find: step 3" "$f2/find?find=aten::MM&step=3&limit=0"
	in_step=$(sed -n 's/.*"total": \([0-9]*\).*/\1/p' "$tmp/body" | head -1)
	expect 200 "trace of step 3" "${url}api/file/2/trace?step=3"
	# (expect sets got and want: names of our own here)
	in_trace=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for e in d["traceEvents"] if e.get("ph") == "X" and "aten::mm" in e.get("name", "").lower()))
' "$tmp/body")
	expect 200 "find: whole" "$f2/find?find=aten::MM&limit=0"
	whole=$(sed -n 's/.*"total": \([0-9]*\).*/\1/p' "$tmp/body" | head -1)
	[ -n "$in_step" ] && [ "$in_step" = "$in_trace" ] && [ "$in_step" -gt 0 ] && [ "$in_step" -lt "$whole" ] && ok ||
		bad "find in step 3: $in_step matches, the window's trace has $in_trace (whole trace $whole)"
fi
expect 400 "find: no step 99" "$f2/find?find=a&step=99"
message "--step: no step 99"

# ---- errors
expect 400 "find: no text" "$f1/find"
message "find takes a non-empty text"
expect 400 "find: empty text" "$f1/find?find="
expect 400 "find: negative limit" "$f1/find?find=a&limit=-1"
message "limit takes 0 to 10000 matches"
expect 400 "find: limit too big" "$f1/find?find=a&limit=10001"
expect 400 "find: limit not an integer" "$f1/find?find=a&limit=1.5"
expect 400 "find: bad start" "$f1/find?find=a&start_ns=1e3"
message "start_ns and end_ns take integer nanoseconds"
expect 400 "find: empty window" "$f1/find?find=a&start_ns=5&end_ns=5"
message "the window is empty"
expect 400 "find: reversed window" "$f1/find?find=a&start_ns=9&end_ns=5"
expect 400 "find: unknown parameter" "$f1/find?find=a&px=10"
message "timeline/find takes no parameter 'px'"
expect 404 "find: no such file" "${url}api/file/9/timeline/find?find=a"
if [ -n "$report" ]; then
	expect 400 "find: a report" "${url}api/file/3/timeline/find?find=a"
	message "is not a trace"
fi
kill "$pid"
wait "$pid" && ok || bad "server stop"
pid=
finish
