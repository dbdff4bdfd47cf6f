#!/bin/sh
# API tests of `gpuprof serve`: starts the server on a free loopback port
# (--port 0) with a known trace and Nsight Compute reports (the tiny one of
# tests/ncu/mkreport.py, and ../shared/data/ncu reports when present), checks
# that every endpoint answers exactly what `gpuprof VIEW --format json` and
# `gpuprof ncu VERB --format json` print, and every security rule (Host,
# Origin, paths, sizes), then stops it. Needs curl; closing line
# "server: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL server: $*"; fail=$((fail + 1)); }
# wait_url FILE PID: the URL a server (process PID) printed into FILE, once
# it has; nothing when it exited or took over 10 s
wait_url() {
	for _ in $(seq 1 100); do
		u=$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$1" 2>/dev/null) && { echo "$u"; return; }
		kill -0 "$2" 2>/dev/null || return
		sleep 0.1
	done
}
# sub NAME CMD...: runs a part with its own server (a script closing with
# "NAME: N passed, N failed"), shows its other lines and adds its counts
sub() {
	sub_name=$1
	shift
	sub_out=$("$@" 2>&1)
	printf '%s\n' "$sub_out" | grep -v "^$sub_name: [0-9]* passed"
	sub_pass=$(printf '%s\n' "$sub_out" | sed -n "s/^$sub_name: \([0-9]*\) passed, \([0-9]*\) failed\$/\1/p")
	sub_fail=$(printf '%s\n' "$sub_out" | sed -n "s/^$sub_name: \([0-9]*\) passed, \([0-9]*\) failed\$/\2/p")
	if [ -n "$sub_pass" ]; then
		pass=$((pass + sub_pass))
		fail=$((fail + sub_fail))
	else
		bad "$* did not finish"
	fi
}
if ! command -v curl >/dev/null 2>&1; then
	echo "server: curl not found (tools/setup.sh installs it)"
	echo "server: 0 passed, 1 failed"
	exit 1
fi
fix=examples/resnet_like.json.gz
small=tests/golden/_inputs/memory.json
ncu_small=tests/golden/_inputs/tiny.ncu-rep # written by tests/ncu/mkreport.py
shared=${GPUPROF_SHARED:-../shared}
ncu_shared=
for f in ncu2023.2_a10_default_105kernels.ncu-rep ncu2025.3_rtx3080ti_basic_sassscope.ncu-rep; do
	[ -f "$shared/data/ncu/$f" ] && ncu_shared="$ncu_shared $shared/data/ncu/$f"
done
[ -z "$ncu_shared" ] && echo "server: no $shared/data/ncu reports: the API is checked on $ncu_small only"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-server.XXXXXX")
# file 1 is the trace, 2 the tiny report, 3.. the shared reports
# shellcheck disable=SC2086
"$GPUPROF" serve -q --port 0 --max-upload 64K "$fix" "$ncu_small" $ncu_shared >"$tmp/out" 2>"$tmp/err" &
pid=$!
url=$(wait_url "$tmp/out" "$pid")
if [ -z "$url" ]; then
	bad "server did not start: $(cat "$tmp/err")"
	kill "$pid" 2>/dev/null
	rm -rf "$tmp"
	echo "server: $pass passed, $fail failed"
	exit 1
fi
ok
port=${url#http://127.0.0.1:}
port=${port%/}
# status URL [curl options...]: the HTTP status
status() { u=$1; shift; curl -s -o "$tmp/body" -w '%{http_code}' "$@" "$u"; }
expect() { # want description url [curl options...]
	want=$1; what=$2; shift 2
	got=$(status "$@")
	[ "$got" = "$want" ] && ok || bad "$what: HTTP $got, want $want ($(head -c 200 "$tmp/body"))"
}
# same QUERY ARGS...: the API's answer equals the command's JSON, byte for byte
same() {
	q=$1; shift
	got=$(status "${url}api/file/1/$q")
	"$GPUPROF" "$@" --format json "$fix" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "$q: HTTP $got, differs from 'gpuprof $*'"; fi
}
same summary summary
same 'summary?tb_compat=1&timeline=1' summary --tb-compat --timeline
same steps steps
same 'steps?step=4-5' steps --step 4-5
same ops ops
same 'ops?group_by=op%2Bshape&sort=host_self&top=5' ops --group-by op+shape --sort host_self --top 5
same 'ops?stack=1&tb_compat=1' ops --stack --tb-compat
same kernels kernels
same 'kernels?group_by=kernel%2Bop&top=3' kernels --group-by kernel+op --top 3
same memory memory
same 'memory?curve=1' memory --curve
same 'memory?curve=1&step_plot=1&events=1' memory --curve --step-plot --events
# info and top are views too: the same bytes as the commands
same info info
same top top
same 'top?top=5' top -n 5
same 'top?top=0&gpu=1' top --top=0 --gpu
same idle idle
same 'idle?show_intervals=1&kernel_wait_ns=10000' idle --show-intervals --kernel-wait 10us
same launches launches
same sync sync
same 'sync?top=1' sync --top 1
same flops flops
same counters counters
same 'counters?series=1&max_queue_length=2' counters --series --max-queue-length 2
same sequences sequences
same 'sequences?operator=aten%3A%3Amm&min_length=1&top=0&show_instances=1' sequences --operator aten::mm --min-length 1 --top 0 --show-instances
same 'launches?all_launches=1&top=0&no_memory=1&delay_cutoff_ns=15000' launches --all-launches --top 0 --no-memory --delay-cutoff 15us
# Nsight Compute: same_ncu ID REPORT QUERY ARGS...: /api/file/ID/ncu/QUERY
# equals `gpuprof ncu ARGS --format json REPORT`, byte for byte
same_ncu() {
	fid=$1 rep=$2 q=$3; shift 3
	got=$(status "${url}api/file/$fid/ncu/$q")
	"$GPUPROF" ncu "$@" --format json "$rep" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "ncu/$q of $rep: HTTP $got, differs from 'gpuprof ncu $*'"; fi
}
fid=2
for rep in "$ncu_small" $ncu_shared; do
	same_ncu $fid "$rep" list list
	same_ncu $fid "$rep" session session
	same_ncu $fid "$rep" details details
	same_ncu $fid "$rep" 'details?id=0' details --id 0
	same_ncu $fid "$rep" 'details?id=0&section=SpeedOfLight&print_units=base' details --id 0 --section SpeedOfLight --print-units base
	same_ncu $fid "$rep" 'details?print_details=header' details --print-details header
	same_ncu $fid "$rep" hints hints
	same_ncu $fid "$rep" 'hints?sort=speedup' hints --sort speedup
	same_ncu $fid "$rep" 'hints?sort=type&kernel=.' hints --sort type --kernel .
	same_ncu $fid "$rep" 'raw?id=0' raw --id 0
	same_ncu $fid "$rep" 'list?kernel=%5E%5B_a-m%5D' list --kernel '^[_a-m]'
	fid=$((fid + 1))
done
expect 200 "files lists the reports" "${url}api/files"
grep -q '"name": "tiny.ncu-rep"' "$tmp/body" && grep -q '"kind": "ncu"' "$tmp/body" && ok || bad "files: no tiny.ncu-rep of kind ncu"
expect 404 "unknown ncu verb" "${url}api/file/2/ncu/frobnicate"
expect 400 "ncu unknown parameter" "${url}api/file/2/ncu/list?section=x"
expect 400 "ncu bad id" "${url}api/file/2/ncu/details?id=-1"
expect 400 "ncu bad sort" "${url}api/file/2/ncu/hints?sort=size"
expect 400 "ncu bad regex" "${url}api/file/2/ncu/list?kernel=%28"
expect 400 "ncu verb on a trace" "${url}api/file/1/ncu/list"
expect 400 "trace view on a report" "${url}api/file/2/summary"
expect 404 "ncu of an unknown file" "${url}api/file/99/ncu/list"
# the ncu verbs are the registry's: an unknown one is named as the CLI names it
expect 404 "mistyped ncu verb" "${url}api/file/2/ncu/lst"
want_msg=$("$GPUPROF" ncu lst "$ncu_small" 2>&1 | head -n 1)
want_msg=${want_msg#gpuprof: }
[ "$want_msg" = "ncu: unknown verb 'lst'; did you mean 'list'? (list, raw, session, details, hints, body, source, diff)" ] &&
	grep -qF "\"$want_msg\"" "$tmp/body" && ok || bad "mistyped ncu verb: message $(cat "$tmp/body"), CLI: $want_msg"
expect 404 "unknown ncu verb body" "${url}api/file/2/ncu/frobnicate"
grep -qF "ncu: unknown verb 'frobnicate' (list, raw, session, details, hints, body, source, diff)" "$tmp/body" && ok || bad "unknown ncu verb: message $(cat "$tmp/body")"
# ncu diff takes two reports: one file is the request's fault, said so
expect 400 "ncu diff of one report" "${url}api/file/2/ncu/diff?fail_if=ncu.duration_ns%3E%2B3%25"
grep -qF "ncu diff takes two reports, BASE and NEW" "$tmp/body" && ok || bad "ncu diff of one report: message $(cat "$tmp/body")"
expect 400 "ncu diff: a bad gate" "${url}api/file/2/ncu/diff?fail_if=ncu.bogus%3E1%25"
grep -qF "expected a metric of launches" "$tmp/body" && ok || bad "ncu diff bad gate: message $(cat "$tmp/body")"
expect 400 "ncu parameter of another verb" "${url}api/file/2/ncu/list?section=x"
grep -qF "ncu list takes no parameter 'section'" "$tmp/body" && ok || bad "ncu list section: message $(cat "$tmp/body")"
expect 400 "ncu bad print_units" "${url}api/file/2/ncu/raw?print_units=kilo"
grep -qF "print_units takes base or auto" "$tmp/body" && ok || bad "ncu print_units: message $(cat "$tmp/body")"
expect 400 "ncu bad id message" "${url}api/file/2/ncu/details?id=-1"
grep -qF "id needs a number >= 0, not '-1'" "$tmp/body" && ok || bad "ncu bad id: message $(cat "$tmp/body")"
# --- ncu body (views/view_ncu_body.c): the section bodies for the page's charts ---
fid=2
for rep in "$ncu_small" $ncu_shared; do
	same_ncu $fid "$rep" 'body?id=0' body --id 0
	same_ncu $fid "$rep" 'body?section=SpeedOfLight&kernel=.' body --section SpeedOfLight --kernel .
	same_ncu $fid "$rep" 'body?id=0&metric=%5Elaunch__%7C%5Edevice__attribute_max_' body --id 0 --metric '^launch__|^device__attribute_max_'
	fid=$((fid + 1))
done
# the values mkreport.py wrote, at full precision, and the declared bar item
expect 200 "ncu body of tiny" "${url}api/file/2/ncu/body?id=0&metric=%5Elaunch__block_size%24"
python3 - "$tmp/body" <<'PY' && ok || bad "ncu body of tiny: unexpected rows"
import json, sys
rows = json.load(open(sys.argv[1]))["body"]
key = lambda r: (r["type"], r["item_label"], r["metric"], r["label"], r["value"], r["text"])
want = [("header", None, "gpu__time_duration.sum", "Duration", 1536, "1,536"),
        ("header", None, "sm__throughput.avg.pct_of_peak_sustained_elapsed", "Compute (SM) Throughput", 12.3456, "12.35"),
        ("metrics", None, "launch__registers_per_thread", "Registers Per Thread", 32, "32"),
        ("bar", "Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM [%]", 12.3456, "12.35"),
        ("metric", None, "launch__block_size", None, 128, "128")]
assert [key(r) for r in rows] == want, [key(r) for r in rows]
assert rows[3]["kind"] == 2 and rows[3]["item"] == 0 and rows[3]["section_id"] == "SpeedOfLight"
assert rows[4]["section"] is None and rows[4]["unit"] == ""
PY
expect 400 "ncu body unknown parameter" "${url}api/file/2/ncu/body?sort=x"
expect 400 "ncu body bad metric regex" "${url}api/file/2/ncu/body?metric=%28"
expect 400 "ncu body bad id" "${url}api/file/2/ncu/body?id=x"
expect 400 "ncu body of a trace" "${url}api/file/1/ncu/body"
# --- end of ncu body ---
# the timeline, on a hand-made trace (tests/server/timeline.json): thread
# main (from 1 ms on; the answer's times are relative to it): outer 0-100 µs, inner1 10-11, inner2 11-12, inner3 50-70 (nested in
# outer); stream 7: k1 20-22, k2 23-25. tl QUERY: the answer in $tmp/body
tl_fix=tests/server/timeline.json
"$GPUPROF" serve -q --port 0 "$tl_fix" >"$tmp/tlout" 2>"$tmp/tlerr" &
tlpid=$!
tlurl=$(wait_url "$tmp/tlout" "$tlpid")
# has WHAT LINE...: every LINE is a whole line of $tmp/body; lacks: none is
has() { w=$1; shift; for l in "$@"; do grep -qxF -- "$l" "$tmp/body" || { bad "timeline $w: no line '$l' in: $(cat "$tmp/body")"; return; }; done; ok; }
lacks() { w=$1; shift; for l in "$@"; do grep -qF -- "$l" "$tmp/body" && { bad "timeline $w: has '$l'"; return; }; done; ok; }
# px=10 over the whole trace: 10 µs columns; events shorter are merged
# (spans, written as columns: depth, col, ts, end, count, busy_ns)
expect 200 "timeline coarse" "${tlurl}api/file/1/timeline?px=10"
has coarse \
	'  "timeline": {"trace_start_ns": 1000000, "trace_end_ns": 1100000, "start_ns": 0, "end_ns": 100000, "px": 10, "ns_per_px": 10000.000},' \
	'   {"track": 0, "pid": "1", "tid": "1", "process": "python", "thread": "main", "items": [' \
	'    {"type": "event", "depth": 0, "row": 0, "ts": 0, "dur": 100000, "kind": "cpu_op", "name": "outer"},' \
	'    {"type": "event", "depth": 1, "row": 3, "ts": 50000, "dur": 20000, "kind": "cpu_op", "name": "inner3"}' \
	'    "spans": {"depth": [1], "col": [1], "ts": [10000], "end": [12000], "count": [2], "busy_ns": [2000]},' \
	'    "events": 4, "busy_ns": 100000, "depths": 2, "items_shown": 3,' \
	'   {"track": 1, "pid": "0", "tid": "7", "process": "", "thread": "", "items": [],' \
	'    "spans": {"depth": [0], "col": [2], "ts": [20000], "end": [25000], "count": [2], "busy_ns": [4000]},' \
	'    "events": 2, "busy_ns": 4000, "depths": 1, "items_shown": 1,' \
	'  "truncated": false'
lacks coarse '"name": "inner1"' '"name": "k1"'
# px=1000: 100 ns columns, every event comes alone
expect 200 "timeline fine" "${tlurl}api/file/1/timeline?start_ns=0&end_ns=100000&px=1000"
has fine \
	'    {"type": "event", "depth": 1, "row": 1, "ts": 10000, "dur": 1000, "kind": "cpu_op", "name": "inner1"},' \
	'    {"type": "event", "depth": 1, "row": 2, "ts": 11000, "dur": 1000, "kind": "cpu_op", "name": "inner2"},' \
	'    {"type": "event", "depth": 0, "row": 4, "ts": 20000, "dur": 2000, "kind": "kernel", "name": "k1"},' \
	'    {"type": "event", "depth": 0, "row": 5, "ts": 23000, "dur": 2000, "kind": "kernel", "name": "k2"}' \
	'    "events": 4, "busy_ns": 100000, "depths": 2, "items_shown": 4,'
lacks fine '"spans": {"depth": [0' '"spans": {"depth": [1'
# a window inside outer and inner3 (both start before it): clipped totals
expect 200 "timeline window" "${tlurl}api/file/1/timeline?start_ns=55000&end_ns=60000&px=5"
has window \
	'    {"type": "event", "depth": 0, "row": 0, "ts": 0, "dur": 100000, "kind": "cpu_op", "name": "outer"},' \
	'    {"type": "event", "depth": 1, "row": 3, "ts": 50000, "dur": 20000, "kind": "cpu_op", "name": "inner3"}' \
	'    "events": 2, "busy_ns": 5000, "depths": 2, "items_shown": 2,' \
	'    "events": 0, "busy_ns": 0, "depths": 0, "items_shown": 0,'
# an empty window: the lanes with no items
expect 200 "timeline after the trace" "${tlurl}api/file/1/timeline?start_ns=200000&end_ns=300000&px=10"
has empty '   {"track": 1, "pid": "0", "tid": "7", "process": "", "thread": "", "items": [],' \
	'    "spans": {"depth": [], "col": [], "ts": [], "end": [], "count": [], "busy_ns": []},' \
	'    "events": 0, "busy_ns": 0, "depths": 0, "items_shown": 0,'
lacks empty '"type":'
expect 400 "timeline start = end" "${tlurl}api/file/1/timeline?start_ns=5&end_ns=5"
expect 400 "timeline px 0" "${tlurl}api/file/1/timeline?px=0"
expect 400 "timeline px too wide" "${tlurl}api/file/1/timeline?px=100000"
expect 400 "timeline bad start" "${tlurl}api/file/1/timeline?start_ns=1e3"
expect 400 "timeline unknown parameter" "${tlurl}api/file/1/timeline?frobnicate=1"
expect 404 "timeline of an unknown file" "${tlurl}api/file/9/timeline"
kill "$tlpid"
wait "$tlpid" 2>/dev/null
# the timeline of the example trace: the per-lane items stay within the bound
expect 200 "timeline of the example" "${url}api/file/1/timeline?px=200"
grep -q '"truncated": false' "$tmp/body" && ok || bad "timeline of the example: truncated"
# string process/thread ids are the lanes' pid/tid as written ('Spans' /
# 'PyTorch Profiler', 'Traces', ''), and the instant at the trace's very end
# (Kineto's "Record Window End", on pid '' tid '') is in the whole trace
if command -v python3 >/dev/null 2>&1; then
	lanes=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(";".join("%s/%s/%d/%d" % (l["pid"], l["tid"], l["events"], l["instant_events"]) for l in d["lanes"] if not l["gpu"] and l["pid"] != "1299557"))
' "$tmp/body")
	[ "$lanes" = "Spans/PyTorch Profiler/1/0;//0/1;Traces/Trace PyTorch Profiler/0/1" ] && ok ||
		bad "timeline of the example: string-id lanes: $lanes"
fi
expect 400 "timeline of a report" "${url}api/file/2/timeline"
# the files list and the viewer
expect 200 "files" "${url}api/files"
grep -q '"name": "resnet_like.json.gz"' "$tmp/body" && ok || bad "files: no resnet_like.json.gz"
expect 200 "index" "$url"
curl -s -D - -o /dev/null "$url" | grep -qi '^content-type: text/html' && ok || bad "index: not text/html"
# errors of the API
expect 404 "unknown file" "${url}api/file/9/summary"
expect 404 "unknown view" "${url}api/file/1/frobnicate"
expect 400 "unknown parameter" "${url}api/file/1/ops?frobnicate=1"
expect 400 "bad group_by" "${url}api/file/1/ops?group_by=kernel"
grep -qF "group_by must be op or op+shape, not 'kernel'" "$tmp/body" && ok || bad "bad group_by: message $(cat "$tmp/body")"
expect 404 "unknown view name" "${url}api/file/1/sumary"
grep -qF 'no such endpoint: /api/file/1/sumary' "$tmp/body" && ok || bad "unknown view name: message $(cat "$tmp/body")"
expect 404 "a view name's prefix" "${url}api/file/1/sum"
expect 400 "a mistyped parameter" "${url}api/file/1/ops?tpo=5"
grep -qF "ops takes no parameter 'tpo'; did you mean 'top'?" "$tmp/body" && ok || bad "mistyped parameter: message $(cat "$tmp/body")"
expect 400 "bad sort" "${url}api/file/1/ops?sort=bogus"
grep -qF "sort must be device_self, device_total, host_self, host_total, calls, tc_self, tc_total or name, not 'bogus'" "$tmp/body" && ok || bad "bad sort: message $(cat "$tmp/body")"
expect 400 "bad top" "${url}api/file/1/top?top=x"
grep -qF "top needs a count, not 'x'" "$tmp/body" && ok || bad "bad top: message $(cat "$tmp/body")"
expect 400 "info takes no step" "${url}api/file/1/info?step=1"
grep -qF "info takes no parameter 'step'" "$tmp/body" && ok || bad "info step: message $(cat "$tmp/body")"
# diff's --base/--new name files: no query takes them (and none crashes)
expect 400 "diff takes no base" "${url}api/file/1/diff?base=x&new=y"
grep -qF "diff takes no parameter 'base'" "$tmp/body" && ok || bad "diff base: message $(cat "$tmp/body")"
expect 400 "diff takes no new" "${url}api/file/1/diff?new=y"
same 'top?step=4' top --step 4
expect 400 "unknown device" "${url}api/file/1/memory?device=cuda:7"
expect 405 "DELETE" "${url}api/files" -X DELETE
# DNS rebinding and cross-site requests
expect 403 "bad Host" "${url}api/files" -H "Host: evil.example:$port"
expect 403 "Host with another port" "${url}api/files" -H "Host: 127.0.0.1:1"
expect 200 "Host localhost" "${url}api/files" -H "Host: localhost:$port"
expect 403 "bad Origin" "${url}api/files" -H "Origin: http://evil.example"
expect 403 "Origin of another port" "${url}api/files" -H "Origin: http://127.0.0.1:1"
expect 200 "own Origin" "${url}api/files" -H "Origin: http://127.0.0.1:$port"
expect 403 "upload from another site" "${url}api/upload?name=x.json" -H "Origin: http://evil.example" --data-binary @"$small"
# no request path reaches the filesystem
expect 404 "path traversal" "${url}../../../etc/passwd" --path-as-is
expect 404 "encoded traversal" "${url}%2e%2e/%2e%2e/etc/passwd" --path-as-is
expect 404 "absolute-looking path" "${url}/etc/passwd" --path-as-is
expect 404 "source file" "${url}Makefile"
# sizes
long=$(head -c 5000 /dev/zero | tr '\0' a)
expect 414 "long URL" "${url}api/files?$long"
head -c 70000 /dev/zero >"$tmp/big"
expect 413 "oversized upload" "${url}api/upload?name=big.json" --data-binary @"$tmp/big"
# a chunked body (no Content-Length) is refused at once, whatever its size
expect 411 "oversized chunked upload" "${url}api/upload?name=big.json" -H "Transfer-Encoding: chunked" --data-binary @"$tmp/big"
expect 411 "small chunked upload" "${url}api/upload?name=small.json" -H "Transfer-Encoding: chunked" --data-binary @"$small"
grep -qF '"message": "an upload needs a Content-Length (curl --data-binary @FILE sends one)"' "$tmp/body" && ok ||
	bad "chunked upload: the 411's message ($(cat "$tmp/body"))"
# uploads
expect 200 "upload" "${url}api/upload?name=memory.json" --data-binary @"$small"
grep -q '"name": "memory.json"' "$tmp/body" && ok || bad "upload: answer lacks the file"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
got=$(status "${url}api/file/$id/memory")
"$GPUPROF" memory --format json "$small" >"$tmp/want" 2>/dev/null
[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "uploaded file's memory view differs"
printf 'not a trace' >"$tmp/bad.txt"
expect 400 "bad upload" "${url}api/upload?name=bad.txt" --data-binary @"$tmp/bad.txt"
grep -q 'bad.txt.*expected a trace' "$tmp/body" && ok || bad "bad upload: message: $(cat "$tmp/body")"
expect 400 "empty upload" "${url}api/upload?name=empty.json" --data-binary ''
# an .ncu-rep upload is recognised by its magic, whatever its name
expect 200 "ncu upload" "${url}api/upload?name=prof.bin" --data-binary @"$ncu_small"
grep -q '"kind": "ncu"' "$tmp/body" && ok || bad "ncu upload: not of kind ncu: $(cat "$tmp/body")"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
same_ncu "$id" "$ncu_small" hints hints
gzip -c "$ncu_small" >"$tmp/tiny.ncu-rep.gz"
expect 200 "gzip ncu upload" "${url}api/upload?name=tiny.ncu-rep.gz" --data-binary @"$tmp/tiny.ncu-rep.gz"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
same_ncu "$id" "$ncu_small" details details
head -c 300 "$ncu_small" >"$tmp/cut.ncu-rep"
expect 400 "cut ncu upload" "${url}api/upload?name=cut.ncu-rep" --data-binary @"$tmp/cut.ncu-rep"
# Nsight Systems SQLite exports (tests/nsys/check_sqlite.py's tiny one):
# same_nsys ID VIEW: /api/file/ID/nsys/VIEW equals `gpuprof nsys PATH VIEW
# --format json` (PATH as the server got it), byte for byte
nsys_db=$tmp/tiny.sqlite
if python3 -c "import sys; sys.path.insert(0, 'tests/nsys'); import check_sqlite; check_sqlite.make_tiny(sys.argv[1], True)" "$nsys_db" 2>"$tmp/py.err"; then
	same_nsys() {
		got=$(status "${nurl}api/file/$1/nsys/$2")
		"$GPUPROF" nsys "$3" "$2" --format json >"$tmp/want" 2>/dev/null
		[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "nsys/$2 of file $1: HTTP $got, differs from 'gpuprof nsys $3 $2'"
	}
	"$GPUPROF" serve -q --port 0 "$nsys_db" "$fix" >"$tmp/nout" 2>"$tmp/nerr" &
	npid=$!
	nurl=$(wait_url "$tmp/nout" "$npid")
	if [ -n "$nurl" ]; then
		ok
		status "${nurl}api/files" >/dev/null
		grep -q '"kind": "nsys"' "$tmp/body" && ok || bad "nsys: not of kind nsys: $(cat "$tmp/body")"
		for v in info kernels memcpy api nvtx gpus; do same_nsys 1 $v "$nsys_db"; done
		expect 404 "nsys: unknown view" "${nurl}api/file/1/nsys/bogus"
		# the nsys views are the registry's: an unknown one is named as the CLI names it
		grep -qF "no nsys view 'bogus' (info, kernels, memcpy, api, nvtx, gpus, steps, diff)" "$tmp/body" && ok || bad "nsys unknown view: message $(cat "$tmp/body")"
		expect 404 "nsys: mistyped view" "${nurl}api/file/1/nsys/kernel"
		want_msg=$("$GPUPROF" nsys "$nsys_db" kernel 2>&1 | head -n 1)
		want_msg=${want_msg#gpuprof: nsys: }
		[ "$want_msg" = "no nsys view 'kernel'; did you mean 'kernels'? (info, kernels, memcpy, api, nvtx, gpus, steps, diff)" ] &&
			grep -qF "\"$want_msg\"" "$tmp/body" && ok || bad "mistyped nsys view: message $(cat "$tmp/body"), CLI: $want_msg"
		expect 400 "nsys: diff of one export" "${nurl}api/file/1/nsys/diff"
		grep -qF "nsys diff takes two analyses, BASE and NEW" "$tmp/body" && ok || bad "nsys diff of one export: message $(cat "$tmp/body")"
		expect 400 "nsys: a parameter" "${nurl}api/file/1/nsys/kernels?top=3"
		expect 400 "nsys: a trace view of an export" "${nurl}api/file/1/summary"
		expect 400 "nsys: an nsys view of a trace" "${nurl}api/file/2/nsys/info"
		expect 400 "nsys: ncu verb of an export" "${nurl}api/file/1/ncu/list"
		kill "$npid"
		wait "$npid" && ok || bad "nsys server: stop"
	else
		bad "nsys server did not start: $(cat "$tmp/nerr")"
		kill "$npid" 2>/dev/null
	fi
	# an upload, whatever its name, by the magic; the tables are the CLI's
	expect 200 "nsys upload" "${url}api/upload?name=prof.bin" --data-binary @"$nsys_db"
	grep -q '"kind": "nsys"' "$tmp/body" && ok || bad "nsys upload: not of kind nsys: $(cat "$tmp/body")"
	id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
	nurl=$url
	for v in kernels memcpy api nvtx gpus; do same_nsys "$id" $v "$nsys_db"; done
	expect 200 "nsys upload: info" "${url}api/file/$id/nsys/info"
	head -c 2000 "$nsys_db" >"$tmp/cut.sqlite"
	expect 400 "cut nsys upload" "${url}api/upload?name=cut.sqlite" --data-binary @"$tmp/cut.sqlite"
else
	bad "nsys: could not make the tiny export: $(cat "$tmp/py.err")"
fi
# ---- memory window: start_ns/end_ns = gpuprof memory --start/--end (ns) ----
same 'memory?start_ns=10000000&end_ns=20000000' memory --start 10000000 --end 20000000
same 'memory?events=1&start_ns=10000000&end_ns=20000000' memory --events --start 10ms --end 20ms
same 'memory?curve=1&events=1&start_ns=5000000' memory --curve --events --start 5ms
same 'memory?device=cpu&end_ns=9000000' memory --device cpu --end 9ms
# the window changes the answer: fewer events than the whole trace's
status "${url}api/file/1/memory?events=1&start_ns=10000000&end_ns=20000000" >/dev/null
n_win=$(grep -c '"size_bytes"' "$tmp/body")
status "${url}api/file/1/memory?events=1" >/dev/null
n_all=$(grep -c '"size_bytes"' "$tmp/body")
[ "$n_win" -gt 0 ] && [ "$n_win" -lt "$n_all" ] && ok || bad "memory window: $n_win events of $n_all"
expect 400 "memory: start_ns not an integer" "${url}api/file/1/memory?start_ns=10ms"
expect 400 "memory: end_ns before start_ns" "${url}api/file/1/memory?start_ns=5&end_ns=4"
expect 400 "ops: no start_ns" "${url}api/file/1/ops?start_ns=5"
# points = --curve-points: the curve's level of detail; 1,512 points cut to
# at most 600 (and the peaks kept: their maximum equals the whole curve's)
same 'memory?curve=1&points=600' memory --curve --curve-points 600
same 'memory?curve=1&points=60&start_ns=5000000&end_ns=30000000' memory --curve --curve-points 60 --start 5ms --end 30ms
status "${url}api/file/1/memory?curve=1&points=600" >/dev/null
n_lod=$(grep -c '"time_ns"' "$tmp/body")
max_lod=$(sed -n 's/.*"allocated_bytes": \([0-9]*\).*/\1/p' "$tmp/body" | sort -n | tail -1)
status "${url}api/file/1/memory?curve=1" >/dev/null
n_all=$(grep -c '"time_ns"' "$tmp/body")
max_all=$(sed -n 's/.*"allocated_bytes": \([0-9]*\).*/\1/p' "$tmp/body" | sort -n | tail -1)
[ "$n_lod" -le 600 ] && [ "$n_lod" -lt "$n_all" ] && [ "$max_lod" = "$max_all" ] && ok ||
	bad "memory points: $n_lod of $n_all points, peak $max_lod vs $max_all"
# top = --top with --events: the first N events, and how many there are
same 'memory?events=1&top=5' memory --events --top 5
expect 200 "memory: events top" "${url}api/file/1/memory?events=1&top=5"
[ "$(grep -c '"size_bytes": ' "$tmp/body")" = 5 ] && grep -q '"events_all": [0-9]' "$tmp/body" && ok ||
	bad "memory events top 5: $(grep -c '"size_bytes": ' "$tmp/body") rows"
expect 400 "memory: top without events" "${url}api/file/1/memory?top=5"
expect 400 "memory: points below 6" "${url}api/file/1/memory?curve=1&points=5"
expect 400 "memory: points without curve" "${url}api/file/1/memory?points=100"
expect 400 "memory: points with step_plot" "${url}api/file/1/memory?curve=1&step_plot=1&points=100"
# ---- end of memory window ----
# ---- Nsight Systems iterations: tests/server/nsys_iter.sh (its own
# servers); its counts join ours ----
sub nsys_iter sh tests/server/nsys_iter.sh
# ---- Nsight Compute chart fixture: tests/server/ncu_full.sh (its own
# server on tests/golden/_inputs/full.ncu-rep); its counts join ours ----
sub ncu_full sh tests/server/ncu_full.sh
# ---- end of the Nsight Compute chart fixture ----
# ---- step and range selection: tests/server/stepsel.sh (its own server);
# its counts join ours ----
sub stepsel sh tests/server/stepsel.sh
# ---- end of step and range selection ----
# ---- the distributed view's step/range selection and worker names:
# tests/server/dist_select.sh (its own server); its counts join ours ----
sub dist_select sh tests/server/dist_select.sh
sub fleet sh tests/server/fleet.sh
# ---- end of the distributed selection ----
# ---- the comparison of two files: tests/server/diff.sh (its own server
# on synthetic pairs); its counts join ours ----
sub diff sh tests/server/diff.sh
# ---- end of the comparison ----
# ---- Nsight Systems export timeline: tests/server/nsys_timeline.py (its
# own server; GET /api/file/ID/nsys/timeline on check_sqlite.py's
# make_timeline export against hand-computed lanes, spans, flows and links,
# and on ../shared exports against SQL counts); its counts join ours ----
sub nsys_timeline python3 tests/server/nsys_timeline.py
# ---- end of Nsight Systems export timeline ----
# ---- the timeline's lane order, instants, counters, flows and links, and
# GET /trace (tests/server/timeline_more.json, written by hand: processes
# 30 (sort 1), 10 (sort 2, labels CPU), 5 (no sort); pid 10's threads 2
# (sort 3), 8 (sort 4, a GPU stream), 1 (sort 5), 3 (CPU, none), 0 (GPU,
# none); times from 1 ms on). Its own server; file 1 is that trace, 2 tiny.json.
tm_fix=tests/server/timeline_more.json
awk 'BEGIN { printf "{\"traceEvents\": [\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 20000}";
	for (i = 0; i < 10005; i++) printf ",\n{\"ph\": \"s\", \"cat\": \"x\", \"name\": \"x\", \"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %d},\n{\"ph\": \"f\", \"cat\": \"x\", \"name\": \"x\", \"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %d, \"bp\": \"e\"}", i, i, i, i + 1;
	print "\n]}" }' >"$tmp/manyflows.json"
"$GPUPROF" serve -q --port 0 "$tm_fix" examples/tiny.json "$tmp/manyflows.json" >"$tmp/tmout" 2>"$tmp/tmerr" &
tmpid=$!
tmurl=$(wait_url "$tmp/tmout" "$tmpid")
tm() { expect 200 "timeline_more $1" "${tmurl}api/file/$2"; }
tm lanes '1/timeline?px=10'
order=$(sed -n 's/^   {"track": [0-9]*, "pid": "\([^"]*\)", "tid": "\([^"]*\)".*/\1\/\2/p' "$tmp/body" | tr '\n' ' ')
[ "$order" = "30/1 10/2 10/8 10/1 10/3 10/0 5/1 " ] && ok || bad "lane order: $order"
has lanes \
	'    "labels": "CPU", "process_sort": 2, "thread_sort": 3, "gpu": false, "instants": [' \
	'    "labels": "CPU", "process_sort": 2, "thread_sort": 4, "gpu": true, "instants": [], "instant_runs": {"col": [], "ts": [], "end": [], "count": []}, "instant_events": 0},' \
	'    "labels": null, "process_sort": null, "thread_sort": null, "gpu": false, "instants": [], "instant_runs": {"col": [], "ts": [], "end": [], "count": []}, "instant_events": 0}' \
	'     {"type": "instant", "col": 5, "ts": 50000, "row": 10, "kind": "cpu_instant_event", "name": "mark"}' \
	'    ], "instant_runs": {"col": [1], "ts": [10000], "end": [10500], "count": [2]}, "instant_events": 3},' \
	'     {"type": "instant", "col": 4, "ts": 40000, "row": 9, "kind": "[memory]", "name": "[memory]"}' \
	'   {"counter": 0, "pid": "10", "process": "trainer", "name": "Memory", "series": "allocated", "points": [' \
	'    {"col": 0, "ts": 0, "end": 2000, "count": 3, "min": 1, "max": 3, "last": 2},' \
	'    {"col": 5, "ts": 50000, "value": 5},' \
	'    {"col": 9, "ts": 99000, "value": 4.5}' \
	'   ], "samples": 5, "min": 1, "max": 5},' \
	'    {"col": 0, "ts": 0, "end": 2000, "count": 3, "min": 10, "max": 12, "last": 12},' \
	'   ], "samples": 5, "min": 8, "max": 12}'
lacks lanes '"flows"'
# a window: the counter's value in effect at its start, then its one sample
tm "counter window" '1/timeline?start_ns=10000&end_ns=60000&px=5'
has "counter window" '    {"ts": 2000, "value": 2},' '    {"col": 4, "ts": 50000, "value": 5}' \
	'   ], "samples": 1, "min": 5, "max": 5},' '   ], "samples": 1, "min": 12, "max": 12}'
# flows: the two launches (correlation 101, 102; the ac2g s/f of 101 is the
# same arrow) and the s -> t -> f chain of fwdbwd 7, bound to the slices
# enclosing its events (step row 1, w_op row 3, other row 6)
tm flows '1/timeline?px=10&flows=1'
has flows \
	'  "flows": {"kind": ["launch","launch","flow","flow"], "id": [101,102,7,7], "cat": [null,null,"fwdbwd","fwdbwd"], "name": [null,null,"fwdbwd","fwdbwd"],' \
	'   "from": {"track": [0,0,0,1], "ts": [20000,60000,1000,6000], "row": [7,11,1,3], "depth": [1,1,0,0]},' \
	'   "to": {"track": [2,6,1,5], "ts": [30000,70000,6000,10000], "row": [8,12,3,6], "depth": [0,0,0,0]}},' \
	'  "flows_total": 4, "flows_truncated": false,'
tm "flows window" '1/timeline?start_ns=65000&end_ns=100000&px=10&flows=1'
has "flows window" '  "flows": {"kind": ["launch"], "id": [102], "cat": [null], "name": [null],' \
	'  "flows_total": 1, "flows_truncated": false,'
# 10005 s/f pairs: 2000 arrows written, the total counted
tm "flows truncated" '3/timeline?px=10&flows=1'
has "flows truncated" '  "flows_total": 10005, "flows_truncated": true,'
# picked evenly over the 10005: the last one (id 10004) is among them (the
# first 2000 would stop at 1999)
picked=$(python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["flows"]; print(len(f["id"]), f["kind"].count("flow"), 10004 in f["id"], len(f["from"]["ts"]), len(f["to"]["row"]))' "$tmp/body")
[ "$picked" = "2000 2000 True 2000 2000" ] && ok || bad "flows truncated: not 2000 arrows picked evenly: $picked"
# links of an event: a launch's kernel, a slice's flow neighbours
tm "links launch" '1/timeline?links=7'
has "links launch" '   {"rel": "launched", "row": 8, "track": 2, "ts": 30000, "dur": 5000, "depth": 0, "kind": "kernel", "name": "k8"}'
tm "links kernel" '1/timeline?links=12'
has "links kernel" '   {"rel": "launcher", "row": 11, "track": 0, "ts": 60000, "dur": 4000, "depth": 1, "kind": "cuda_runtime", "name": "cudaLaunchKernel"}'
tm "links flow" '1/timeline?links=3'
has "links flow" \
	'   {"rel": "flow_from", "row": 1, "track": 0, "ts": 0, "dur": 100000, "depth": 0, "kind": "cpu_op", "name": "step"},' \
	'   {"rel": "flow_to", "row": 6, "track": 5, "ts": 10000, "dur": 10000, "depth": 0, "kind": "cpu_op", "name": "other"}'
expect 400 "links: no such row" "${tmurl}api/file/1/timeline?links=13"
# self time: step [0, 100) us less its two launches of 4 us (depth 1)
tm "links self" '1/timeline?links=1'
has "links self" '  "row": 1, "dur": 100000, "self_ns": 92000, "links": ['
# the area selection of pid 10's thread 1 (track 0) over the whole trace, and
# over [21, 62) us: step 41 us less the launches' parts in it (3 + 2 us)
tm agg '1/timeline?agg=1&tracks=0'
has agg '   {"name": "step", "count": 1, "total_ns": 100000, "self_ns": 92000},' \
	'   {"name": "cudaLaunchKernel", "count": 2, "total_ns": 8000, "self_ns": 8000}'
tm "agg window" '1/timeline?agg=1&tracks=0&start_ns=21000&end_ns=62000'
has "agg window" '   {"name": "step", "count": 1, "total_ns": 41000, "self_ns": 36000},' \
	'   {"name": "cudaLaunchKernel", "count": 2, "total_ns": 5000, "self_ns": 5000}'
expect 400 "agg: no such track" "${tmurl}api/file/1/timeline?agg=1&tracks=99"
expect 400 "agg: not a track list" "${tmurl}api/file/1/timeline?agg=1&tracks=0,x"
expect 400 "links: negative" "${tmurl}api/file/1/timeline?links=-1"
expect 400 "timeline_more: unknown parameter" "${tmurl}api/file/1/timeline?flows=1&arrows=1"
# GET /trace: reloaded, `gpuprof info` counts the same (the path, sizes,
# format and category spellings aside); a window: hand-counted
if command -v python3 >/dev/null 2>&1; then
	# infocmp A B: info of A and B equal but for those keys
	infocmp() {
		python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.loads(open(p).read()) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("categories", None)
    for k in ("path", "file_bytes", "json_bytes", "format"):
        d["trace"].pop(k, None)
sys.exit(0 if a == b else 1)
PY
	}
	for f in "1 $tm_fix" "2 examples/tiny.json"; do
		set -- $f
		tm "trace $2" "$1/trace"
		cp "$tmp/body" "$tmp/back.json"
		"$GPUPROF" info "$tmp/back.json" --format json >"$tmp/i1.json" && "$GPUPROF" info "$2" --format json >"$tmp/i2.json" &&
			infocmp "$tmp/i1.json" "$tmp/i2.json" && ok || bad "trace $2: info differs: $(diff "$tmp/i1.json" "$tmp/i2.json" | head -20)"
		"$GPUPROF" kernels "$tmp/back.json" --format json | grep -v '"path"' >"$tmp/k1" && "$GPUPROF" kernels "$2" --format json | grep -v '"path"' >"$tmp/k2" &&
			cmp -s "$tmp/k1" "$tmp/k2" && ok || bad "trace $2: kernels differ"
	done
	# [25, 65) µs from the start, cut as `trace slice --from --to` cuts it
	# (host events starting inside, the GPU work they launched): the second
	# launch (at 60) and its kernel k0 (at 70, after the window); [memory]
	# at 40 and mark at 50; the sample at 50; all 12 metadata events. Not
	# the step (starts at 0), the first launch (at 20) nor its k8 (at 30,
	# launched before the window) nor the ac2g f bound to k8.
	tm "trace window" '1/trace?start_ns=25000&end_ns=65000'
	cp "$tmp/body" "$tmp/slice.json"
	"$GPUPROF" info "$tmp/slice.json" --format json >"$tmp/i1.json"
	got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["trace"]; print(t["events"], t["memory_events"], t["kernels"], " ".join("%s=%d" % (p["phase"], p["count"]) for p in d["phases"]))' "$tmp/i1.json")
	[ "$got" = "17 1 1 C=1 M=12 X=2 i=2" ] && ok || bad "trace window: $got"
	# the same bytes as the CLI's slice of that window (trace µs 1025-1065)
	"$GPUPROF" trace slice "$tm_fix" --from 1025 --to 1065 -o "$tmp/cli_slice.json" &&
		cmp -s "$tmp/slice.json" "$tmp/cli_slice.json" && ok || bad "trace window: not the bytes of trace slice --from 1025 --to 1065"
	# whole: the file's events byte for byte, as `trace slice` copies them
	tm "trace whole bytes" '1/trace'
	python3 - "$tmp/body" "$tm_fix" <<'PY' && ok || bad "trace whole: events not the file's"
import json, sys
got = json.load(open(sys.argv[1]))["traceEvents"]
want = json.load(open(sys.argv[2]))["traceEvents"]
assert got == want, (len(got), len(want))
PY
else
	echo "server: python3 not found: GET /trace not reloaded"
fi
expect 400 "trace: unknown parameter" "${tmurl}api/file/1/trace?px=10"
expect 400 "trace: empty window" "${tmurl}api/file/1/trace?start_ns=5&end_ns=5"
expect 400 "trace: bad number" "${tmurl}api/file/1/trace?start_ns=1.5"
expect 404 "trace: no such file" "${tmurl}api/file/9/trace"
kill "$tmpid"
wait "$tmpid" 2>/dev/null
# ---- end of the timeline_more block
# ---- the timeline's search: tests/server/timeline_find.sh (its own
# server; GET /timeline/find and /timeline?find= against python3's count)
sub timeline_find sh tests/server/timeline_find.sh
# ---- every real trace of ../shared, every endpoint: tests/server/shared_sweep.sh
sub shared_sweep sh tests/server/shared_sweep.sh
# ---- random queries at every endpoint: tests/server/query_fuzz.py
sub query_fuzz python3 tests/server/query_fuzz.py
# ---- removal, eviction, connection limits: tests/server/files.sh (its own
# servers)
sub files sh tests/server/files.sh
# ---- end of the timeline search block
# stop
kill "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "stop: exit $rc"
# usage errors
"$GPUPROF" serve --port 70000 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--port 70000: want exit 2"
"$GPUPROF" serve --host not-an-address --port 0 >/dev/null 2>&1
[ $? -eq 2 ] && ok || bad "--host not-an-address: want exit 2"
# ---------------------------------------------------------------------------
# the distributed view: GET /api/dist over the two-rank traces of
# tests/golden/_inputs (and the tiny report, to ask for a non-trace), then
# uploads of the same traces under other names, then the multi-worker cases
# of ../shared/data/tbprof when present. same_dist URL QUERY ARGS... -- FILES:
# URL/api/dist?QUERY equals `gpuprof dist ARGS --format json FILES`
# byte for byte
same_dist() {
	base=$1 q=$2; shift 2
	got=$(status "${base}api/dist$q")
	"$GPUPROF" dist "$@" >"$tmp/want" 2>/dev/null
	[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "dist$q: HTTP $got, differs from 'gpuprof dist $*'"
}
# dist_serve FILES...: starts a server, its URL in $durl and pid in $dpid
dist_serve() {
	: >"$tmp/dout" # before the child's redirection: no previous server's URL
	"$GPUPROF" serve -q --port 0 "$@" >"$tmp/dout" 2>"$tmp/derr" &
	dpid=$!
	durl=$(wait_url "$tmp/dout" "$dpid")
	[ -n "$durl" ] && ok || bad "dist server did not start: $(cat "$tmp/derr")"
}
r0=tests/golden/_inputs/node0_0.pt.trace.json
r1=tests/golden/_inputs/node0_1.pt.trace.json
dist_serve "$r0" "$r1" "$ncu_small"
if [ -n "$durl" ]; then
	same_dist "$durl" '' --format json "$r0" "$r1"
	same_dist "$durl" '?files=1,2' --format json "$r0" "$r1"
	same_dist "$durl" '?files=1,2&tb_compat=1' --tb-compat --format json "$r0" "$r1"
	same_dist "$durl" '?tb_compat=true' --tb-compat --format json "$r0" "$r1"
	same_dist "$durl" '?files=2,1' --format json "$r1" "$r0"
	same_dist "$durl" '?files=2&tb_compat=1' --tb-compat --format json "$r1"
	grep -q '"worker": "node0_1"' "$tmp/body" && ok || bad "dist: worker name of $r1"
	expect 400 "dist: a report among the files" "${durl}api/dist?files=1,3"
	grep -q 'file 3 (tiny.ncu-rep) is not a PyTorch trace' "$tmp/body" && ok || bad "dist: non-trace message: $(cat "$tmp/body")"
	expect 404 "dist: an unknown file" "${durl}api/dist?files=1,99"
	expect 400 "dist: an unknown parameter" "${durl}api/dist?files=1,2&px=1"
	expect 400 "dist: an empty list" "${durl}api/dist?files="
	expect 400 "dist: an empty item" "${durl}api/dist?files=1,,2"
	expect 400 "dist: not a number" "${durl}api/dist?files=1,two"
	expect 400 "dist: a negative id" "${durl}api/dist?files=-1"
	expect 400 "dist: a file twice" "${durl}api/dist?files=1,1"
	expect 404 "dist: under /api/file" "${durl}api/file/1/dist"
	# uploads are named by their uploaded name (worker and file), as the
	# CLI names files by their base names
	mkdir "$tmp/up"
	cp "$r0" "$tmp/up/nodeB_0.pt.trace.json"
	cp "$r1" "$tmp/up/nodeB_1.pt.trace.json"
	expect 200 "dist: upload rank 0" "${durl}api/upload?name=nodeB_0.pt.trace.json" --data-binary @"$r0"
	expect 200 "dist: upload rank 1" "${durl}api/upload?name=nodeB_1.pt.trace.json" --data-binary @"$r1"
	got=$(status "${durl}api/dist?files=4,5")
	gp=$GPUPROF
	case $gp in /*) ;; *) gp=$PWD/$gp ;; esac
	(cd "$tmp/up" && "$gp" dist --format json nodeB_0.pt.trace.json nodeB_1.pt.trace.json) >"$tmp/want" 2>/dev/null
	[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "dist of uploads: HTTP $got, differs from 'gpuprof dist' of the same names"
	grep -q '"worker": "nodeB_1"' "$tmp/body" && grep -q '"file": "nodeB_1.pt.trace.json"' "$tmp/body" && ok || bad "dist of uploads: worker or file name"
	# default: every trace, in file-id order (the report is left out); the
	# CLI sees the server's relative paths through a link to tests/
	ln -s "$PWD/tests" "$tmp/up/tests"
	got=$(status "${durl}api/dist?tb_compat=1")
	(cd "$tmp/up" && "$gp" dist --tb-compat --format json "$r0" "$r1" nodeB_0.pt.trace.json nodeB_1.pt.trace.json) >"$tmp/want" 2>/dev/null
	[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "dist of every trace: HTTP $got, differs from 'gpuprof dist' of the four"
	grep -q '"workers": 4' "$tmp/body" && ok || bad "dist of every trace: not 4 workers"
	kill "$dpid"
	wait "$dpid" && ok || bad "dist server: stop"
fi
dist_serve "$r0"
if [ -n "$durl" ]; then
	same_dist "$durl" '' --format json "$r0"
	kill "$dpid"
	wait "$dpid" && ok || bad "dist server (one trace): stop"
fi
tbd=$shared/data/tbprof/cases
if [ -f "$tbd/test_distributed_nccl.worker0.json" ] && [ -f "$tbd/test_distributed_gloo_gpu.worker0.json" ]; then
	n0=$tbd/test_distributed_nccl.worker0.json n1=$tbd/test_distributed_nccl.worker1.json
	g0=$tbd/test_distributed_gloo_gpu.worker0.json g1=$tbd/test_distributed_gloo_gpu.worker1.json
	dist_serve "$n0" "$n1" "$g0" "$g1"
	if [ -n "$durl" ]; then
		same_dist "$durl" '?files=1,2' --format json "$n0" "$n1"
		same_dist "$durl" '?files=1,2&tb_compat=1' --tb-compat --format json "$n0" "$n1"
		same_dist "$durl" '?files=3,4&tb_compat=1' --tb-compat --format json "$g0" "$g1"
		same_dist "$durl" '?tb_compat=1' --tb-compat --format json "$n0" "$n1" "$g0" "$g1"
		kill "$dpid"
		wait "$dpid" && ok || bad "dist server (tbprof): stop"
	fi
else
	echo "server: no $tbd/test_distributed_*.json: the distributed API is checked on tests/golden/_inputs only"
fi
# ---------------------------------------------------------------------------
# answers computed ahead and cached: a trace's summary, steps, ops and
# kernels are computed after it is loaded (the warm thread: the quick
# summary at once, the others once nothing has happened for 2 s;
# milliseconds for this trace, so 3 s is plenty), so the first request is
# a cache hit; ops by shape is computed on its first request (miss) and
# cached (hit); the cached answer is the same bytes
"$GPUPROF" serve -q --port 0 "$small" >"$tmp/w1" 2>&1 &
wpid=$!
wurl=$(wait_url "$tmp/w1" "$wpid")
sleep 3
# cache_in ID VIEW TAG: the answer's X-Gpuprof-Cache (hit, miss), its body in body.TAG
cache_in() { curl -s -D "$tmp/hdr" -o "$tmp/body.$3" "${wurl}api/file/$1/$2" >/dev/null; sed -n 's/^X-Gpuprof-Cache: \([a-z]*\).*/\1/p' "$tmp/hdr"; }
cache_of() { cache_in 1 "$1" "$2"; }
[ "$(cache_of summary a)" = hit ] && ok || bad "summary not computed ahead"
[ "$(cache_of 'summary?quick=1' q)" = hit ] && ok || bad "summary?quick=1 (the Overview's first answer) not computed ahead"
"$GPUPROF" summary --quick --format json "$small" >"$tmp/want.quick" 2>/dev/null
cmp -s "$tmp/want.quick" "$tmp/body.q" && ok || bad "summary?quick=1 computed ahead differs from gpuprof summary --quick"
[ "$(cache_of steps a)" = hit ] && ok || bad "steps not computed ahead"
[ "$(cache_of ops a)" = hit ] && [ "$(cache_of kernels a)" = hit ] && ok || bad "ops, kernels not computed ahead"
[ "$(cache_of 'ops?group_by=op%2Bshape' a)" = miss ] && [ "$(cache_of 'ops?group_by=op%2Bshape' b)" = hit ] &&
	cmp -s "$tmp/body.a" "$tmp/body.b" && ok || bad "ops by shape: not a miss, then the same bytes as a hit"
"$GPUPROF" summary --format json "$small" >"$tmp/want.summary" 2>/dev/null
cache_of summary c >/dev/null
cmp -s "$tmp/want.summary" "$tmp/body.c" && ok || bad "the summary computed ahead differs from gpuprof summary"
# work ahead yields to requests (srv_warm.c: after the quick summary, a
# view is begun once no request has begun or ended, and no file was added,
# for 2 s): a file uploaded gets its quick summary at once, its other
# views not while requests come, then once they stop
curl -s -o "$tmp/warm-up.json" "${wurl}api/upload?name=second.json" --data-binary @"$small"
wid=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/warm-up.json")
sleep 0.5
[ "$(cache_in "$wid" 'summary?quick=1' q)" = hit ] && ok || bad "file $wid's quick summary not computed at once"
[ "$(cache_in "$wid" kernels k)" = miss ] && ok || bad "file $wid's kernels computed ahead while requests came"
sleep 3
[ "$(cache_in "$wid" ops o)" = hit ] && ok || bad "file $wid's ops not computed ahead 3 s after the last request"
"$GPUPROF" ops --format json "$small" >"$tmp/want.ops" 2>/dev/null
cmp -s "$tmp/want.ops" "$tmp/body.o" && ok || bad "file $wid's ops computed ahead differ from gpuprof ops"
kill "$wpid"
wait "$wpid"
# the default port taken: without --port the server takes a free one (and
# says so); with an explicit --port 8765 it refuses
"$GPUPROF" serve -q --port 8765 "$small" >"$tmp/p1" 2>&1 &
p1=$!
u1=$(wait_url "$tmp/p1" "$p1")
if [ "$u1" = "http://127.0.0.1:8765/" ]; then
	"$GPUPROF" serve "$small" >"$tmp/p2" 2>"$tmp/p2.err" &
	p2=$!
	u2=$(wait_url "$tmp/p2" "$p2")
	case $u2 in
	http://127.0.0.1:8765/ | "") bad "default port taken: got '$u2' ($(cat "$tmp/p2.err"))" ;;
	*) ok ;;
	esac
	grep -q 'note: port 8765 is in use; taking a free one' "$tmp/p2.err" && ok || bad "default port taken: no note: $(cat "$tmp/p2.err")"
	kill "$p2" 2>/dev/null
	wait "$p2"
	"$GPUPROF" serve -q --port 8765 "$small" >/dev/null 2>"$tmp/p3.err"
	[ $? -eq 2 ] && grep -q 'could not listen on 127.0.0.1 port 8765' "$tmp/p3.err" && ok || bad "--port 8765 taken: want exit 2 and the message"
else
	echo "server: port 8765 is not free here: the default-port fallback is not checked"
fi
kill "$p1" 2>/dev/null
wait "$p1" 2>/dev/null
rm -rf "$tmp"
echo "server: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
