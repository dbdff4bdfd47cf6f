#!/bin/sh
# API tests of the distributed view's selection and worker names (called by
# tests/server/check.sh; run from the repository root with GPUPROF set).
# On tests/golden/_inputs/twostep_{0,1}.pt.trace.json (steps 1 and 2 each)
# and node0_1.pt.trace.json (step 1 only), checks, each against a reference:
#   - /api/dist with step=1, step=2, step=1-2, range= (a user annotation and
#     a CPU op), names=, with tb_compat, in both orders and for the default
#     list: byte for byte `gpuprof dist [--tb-compat] [--step ...|--range
#     ...] [--names ...] --format json FILES`;
#   - step=2's numbers against the values computed by hand in
#     tests/golden/README.md ("Distributed fixtures");
#   - a worker without the step, a malformed step, both selectors, an
#     unknown range, a names count that is not the files': 400 with the
#     CLI's message (the worker's file named as the CLI names it);
#   - uploads: the selection and names on uploaded traces equal the CLI's on
#     copies of the same names, an upload's error names its upload name;
#   - the windows are the other views' (summary?step=2 after dist) and
#     survive eviction (three selections of three files at once: nine
#     windows, more than the four kept).
# Closing line "dist_select: N passed, N failed".
part=dist_select
. tests/server/lib.sh
in=tests/golden/_inputs
a=$in/twostep_0.pt.trace.json
b=$in/twostep_1.pt.trace.json
c=$in/node0_1.pt.trace.json
start_server "$a" "$b" "$c"
# same QUERY ARGS... -- FILES...: /api/dist?QUERY equals `gpuprof dist ARGS
# --format json FILES` byte for byte
same() {
	q=$1; shift
	got=$(status "${url}api/dist?$q")
	"$GPUPROF" dist --format json "$@" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "dist?$q: HTTP $got, differs from 'gpuprof dist $*'"; fi
}
# same_err QUERY ARGS...: 400 whose message is the CLI's error less its
# "gpuprof: error: " or "gpuprof: dist: " prefix
same_err() {
	q=$1; shift
	got=$(status "${url}api/dist?$q")
	"$GPUPROF" dist --format json "$@" >/dev/null 2>"$tmp/cli"
	want=$(sed -n '1s/^gpuprof: \(error: \|dist: \)//p' "$tmp/cli")
	msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body" 2>/dev/null)
	if [ "$got" = 400 ] && [ -n "$want" ] && [ "$msg" = "$want" ]; then ok; else bad "dist?$q: HTTP $got '$msg', want 400 '$want' (gpuprof dist $*)"; fi
}
same 'files=1,2' "$a" "$b"
same 'files=1,2&step=1' --step 1 "$a" "$b"
same 'files=1,2&step=2' --step 2 "$a" "$b"
# step=2 by hand (README): overlap [70, 0, 60, 70] and [50, 0, 30, 120] µs,
# wait [30, 30] and [30, 0], one all_reduce each: latency 60 / 30, transfer 30
python3 - "$tmp/body" <<'PY' && ok || bad "dist?step=2: not the hand-computed numbers"
import json, sys
d = json.load(open(sys.argv[1]))
ov = [(r["worker"], r["step"], r["computation_ns"], r["overlap_ns"], r["communication_ns"], r["other_ns"]) for r in d["overlap"]]
assert ov == [("twostep_0", "2", 70000, 0, 60000, 70000), ("twostep_1", "2", 50000, 0, 30000, 120000)], ov
oa = [(r["worker"], r["computation_ns"], r["overlap_ns"], r["communication_ns"], r["other_ns"]) for r in d["overlap_average"]]
assert oa == [("twostep_0", 70000, 0, 60000, 70000), ("twostep_1", 50000, 0, 30000, 120000)], oa
wt = [(r["worker"], r["step"], r["data_transfer_ns"], r["synchronizing_ns"]) for r in d["waittime"]]
assert wt == [("twostep_0", "2", 30000, 30000), ("twostep_1", "2", 30000, 0)], wt
wa = [(r["worker"], r["data_transfer_ns"], r["synchronizing_ns"]) for r in d["waittime_average"]]
assert wa == [("twostep_0", 30000, 30000), ("twostep_1", 30000, 0)], wa
co = [(r["worker"], r["name"], r["calls"], r["bytes"], r["latency_ns"], r["transfer_ns"]) for r in d["commops"]]
assert co == [("twostep_0", "nccl:all_reduce", 1, 1024, 60000, 30000),
              ("twostep_1", "nccl:all_reduce", 1, 1024, 30000, 30000)], co
assert [(r["worker"], r["steps"], r["comm_ops"]) for r in d["workers"]] == [("twostep_0", 1, 1), ("twostep_1", 1, 1)]
PY
same 'files=1,2&step=1-2' --step 1-2 "$a" "$b"
same 'files=1,2&step=2&tb_compat=1' --tb-compat --step 2 "$a" "$b"
same 'files=2,1&step=2' --step 2 "$b" "$a"
same 'files=1,2&range=nccl:all_reduce' --range nccl:all_reduce "$a" "$b"
same 'files=1,2&range=ProfilerStep%232' --range 'ProfilerStep#2' "$a" "$b"
same 'files=1,2&names=r0,r1' --names r0,r1 "$a" "$b"
grep -q '"worker": "r1"' "$tmp/body" && ok || bad "dist?names: no worker r1"
same 'files=2,1&names=b,a&step=2' --names b,a --step 2 "$b" "$a"
same 'files=1,2&names=first%20worker,second&step=1&tb_compat=1' --names 'first worker,second' --step 1 --tb-compat "$a" "$b"
same 'files=1,3&step=1' --step 1 "$a" "$c"
same 'step=1' --step 1 "$a" "$b" "$c"
same 'names=x,y,z' --names x,y,z "$a" "$b" "$c"
same 'files=1,2&step=&range=&names=' "$a" "$b"
# errors: the CLI's messages
same_err 'files=1,3&step=2' --step 2 "$a" "$c"
grep -qF "$c: --step: no step 2 (steps 1 to 1)" "$tmp/body" && ok || bad "dist?step=2: the message names $c: $(cat "$tmp/body")"
same_err 'files=1,2&step=3' --step 3 "$a" "$b"
same_err 'files=1,2&step=x' --step x "$a" "$b"
same_err 'files=1,2&step=2-1' --step 2-1 "$a" "$b"
same_err 'files=1,2&step=1&range=nope' --step 1 --range nope "$a" "$b"
same_err 'files=1,2&range=nope' --range nope "$a" "$b"
same_err 'files=1,2&names=a' --names a "$a" "$b"
same_err 'files=1,2&names=a,b,c' --names a,b,c "$a" "$b"
same_err 'names=a,b' --names a,b "$a" "$b" "$c"
# the names are checked before the traces are cut, as the CLI does
same_err 'files=1,3&names=a&step=2' --names a --step 2 "$a" "$c"
expect 400 "dist: an unknown parameter" "${url}api/dist?files=1,2&name=a"
message "dist takes no parameter 'name'"
expect 404 "dist: an unknown file with a step" "${url}api/dist?files=1,9&step=1"
# the windows are the views' own: a step's summary after dist's
got=$(status "${url}api/file/1/summary?step=2")
"$GPUPROF" summary --step 2 --format json "$a" >"$tmp/want"
[ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "summary?step=2 after dist: HTTP $got"
# nine windows at once (three selections of three files; four are kept)
cpids=
for q in 'step=1' 'range=c10d::allreduce_' 'range=aten::mm'; do
	curl -s -o "$tmp/par-$q" "${url}api/dist?$q" &
	cpids="$cpids $!"
done
for p in $cpids; do wait "$p"; done # not the server's
for q in 'step=1' 'range=c10d::allreduce_' 'range=aten::mm'; do
	"$GPUPROF" dist --format json "--${q%%=*}" "${q#*=}" "$a" "$b" "$c" >"$tmp/want" 2>/dev/null
	[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/par-$q" && ok || bad "dist?$q at once: differs from the CLI"
done
# uploads: named by their upload names, in the selection and the errors
mkdir "$tmp/up"
cp "$a" "$tmp/up/upB_0.pt.trace.json"
cp "$b" "$tmp/up/upB_1.pt.trace.json"
cp "$c" "$tmp/up/upC_1.pt.trace.json"
for n in upB_0 upB_1 upC_1; do
	expect 200 "upload $n" "${url}api/upload?name=$n.pt.trace.json" --data-binary @"$tmp/up/$n.pt.trace.json"
done
gp=$GPUPROF
case $gp in /*) ;; *) gp=$(pwd)/$gp ;; esac
got=$(status "${url}api/dist?files=4,5&step=2&names=p,q")
(cd "$tmp/up" && "$gp" dist --step 2 --names p,q --format json upB_0.pt.trace.json upB_1.pt.trace.json) >"$tmp/want" 2>/dev/null
[ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "dist of uploads?step=2&names: HTTP $got, differs from the CLI"
got=$(status "${url}api/dist?files=4,6&step=2")
[ "$got" = 400 ] && grep -qF '"upC_1.pt.trace.json: --step: no step 2 (steps 1 to 1)"' "$tmp/body" && ok || bad "dist of uploads?step=2: HTTP $got $(cat "$tmp/body")"
finish
