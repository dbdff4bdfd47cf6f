#!/bin/sh
# API tests of the step and range selection of `gpuprof serve` (called by
# tests/server/check.sh; run from the repository root with GPUPROF set).
# Checks, each against a reference:
#   - step=3, step=2-4 and range=NAME on summary, steps, ops, kernels and
#     memory (with and without other options) are byte for byte `gpuprof
#     VIEW --step 3 / --step 2-4 / --range NAME --format json` on
#     examples/resnet_like.json.gz (steps 3 to 8);
#   - step=2 (no such step), a malformed step, both selectors, an unknown
#     range: 400 with the CLI's own message;
#   - the timeline of step=3 spans exactly `gpuprof steps --step 3`'s start
#     and end; /trace?step=3 read back by the CLI gives `--step 3`'s views;
#   - annotations: the distinct user_annotation names, counts and first
#     starts, computed here from the JSON by python;
#   - more windows than the server keeps (4), asked at the same time, each
#     answer still the CLI's (a window evicted while in use must stay valid).
# Closing line "stepsel: N passed, N failed".
part=stepsel
. tests/server/lib.sh
fix=examples/resnet_like.json.gz
ann=DistributedDataParallel.forward
start_server "$fix"
# same QUERY ARGS...: the API's answer equals `gpuprof ARGS --format json`
same() {
	q=$1; shift
	got=$(status "${url}api/file/1/$q")
	"$GPUPROF" "$@" --format json "$fix" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "$q: HTTP $got, differs from 'gpuprof $*'"; fi
}
# same_err QUERY ARGS...: 400 whose message is the CLI's error (less its
# "gpuprof: error: PATH: " prefix)
same_err() {
	q=$1; shift
	got=$(status "${url}api/file/1/$q")
	"$GPUPROF" "$@" --format json "$fix" >/dev/null 2>"$tmp/cli"
	want=$(sed -n '1s/^gpuprof: \(error: \)\{0,1\}\([a-z]*: \)\{0,1\}\(examples[^:]*: \)\{0,1\}//p' "$tmp/cli")
	msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body" 2>/dev/null)
	if [ "$got" = 400 ] && [ -n "$want" ] && [ "$msg" = "$want" ]; then ok; else bad "$q: HTTP $got '$msg', want 400 '$want' (gpuprof $*)"; fi
}
for v in summary steps ops kernels memory; do
	same "$v?step=3" "$v" --step 3
	same "$v?step=2-4" "$v" --step 2-4
	same "$v?range=$ann" "$v" --range "$ann"
	same_err "$v?step=2" "$v" --step 2
	same_err "$v?step=x" "$v" --step x
done
same 'summary?tb_compat=1&timeline=1&step=5-6' summary --tb-compat --timeline --step 5-6
# steps: step picks rows of the steps of the range's window
same 'steps?step=4&range=ProfilerStep%234' steps --step 4 --range 'ProfilerStep#4'
same 'ops?group_by=op%2Bshape&sort=host_self&top=5&step=4' ops --group-by op+shape --sort host_self --top 5 --step 4
same 'ops?stack=1&range=nccl:all_reduce' ops --stack --range nccl:all_reduce
same 'kernels?group_by=kernel%2Bop&step=8' kernels --group-by kernel+op --step 8
same 'memory?curve=1&events=1&step=3-4' memory --curve --events --step 3-4
same 'memory?curve=1&points=100&step=5' memory --curve --curve-points 100 --step 5
same 'memory?start_ns=1000000&end_ns=4000000&step=6' memory --start 1000000 --end 4000000 --step 6
same_err 'ops?step=3&range=nope' ops --step 3 --range nope
same_err 'kernels?range=no%20such%20range' kernels --range 'no such range'
same_err 'summary?step=9' summary --step 9
same_err 'steps?step=9' steps --step 9
# the timeline of a step: its window is the step's (steps 3's range holds
# all of its GPU work), its times from the window's start
got=$(status "${url}api/file/1/timeline?step=3&px=50")
"$GPUPROF" steps --step 3 --format json "$fix" >"$tmp/steps3"
python3 - "$tmp/body" "$tmp/steps3" <<'PY' && [ "$got" = 200 ] && ok || bad "timeline?step=3: HTTP $got, not the step's window"
import json, sys
tl = json.load(open(sys.argv[1]))["timeline"]
doc = json.load(open(sys.argv[2]))
st = doc["steps"][0]
t0 = int(doc["step_detection"]["trace_start_ns"])  # steps count from the trace's start
assert (tl["trace_start_ns"], tl["trace_end_ns"]) == (st["start_ns"] + t0, st["end_ns"] + t0), (tl, st)
assert (tl["start_ns"], tl["end_ns"]) == (0, st["end_ns"] - st["start_ns"]), tl
PY
got=$(status "${url}api/file/1/timeline?range=$ann&px=50")
python3 - "$tmp/body" <<'PY' && [ "$got" = 200 ] && ok || bad "timeline?range: HTTP $got"
import json, sys
# the range's first DistributedDataParallel.forward starts at 1700000592255788 ns
tl = json.load(open(sys.argv[1]))["timeline"]
assert tl["trace_start_ns"] == 1700000592255788, tl
PY
got=$(status "${url}api/file/1/timeline?step=2")
[ "$got" = 400 ] && grep -q -- '--step: no step 2 (steps 3 to 8)' "$tmp/body" && ok || bad "timeline?step=2: HTTP $got $(cat "$tmp/body")"
# /trace of a step, read back by the CLI: the step's views
got=$(status "${url}api/file/1/trace?step=3")
cp "$tmp/body" "$tmp/step3.json"
for v in summary ops kernels; do
	"$GPUPROF" "$v" --format json "$tmp/step3.json" >"$tmp/a" 2>/dev/null
	"$GPUPROF" "$v" --step 3 --format json "$fix" >"$tmp/b"
	[ "$got" = 200 ] && cmp -s "$tmp/a" "$tmp/b" && ok || bad "trace?step=3 read back: $v differs from --step 3"
done
# /trace?step=3 is `gpuprof trace slice --step 3`, byte for byte, for the
# file and for an upload of it (read again through the upload's descriptor)
"$GPUPROF" trace slice "$fix" --step 3 -o "$tmp/cli_step3.json"
cmp -s "$tmp/step3.json" "$tmp/cli_step3.json" && ok || bad "trace?step=3: not the bytes of trace slice --step 3"
got=$(status "${url}api/upload?name=again.json.gz" --data-binary @"$fix")
uid=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body" | tail -1)
got=$(status "${url}api/file/$uid/trace?step=3")
[ "$got" = 200 ] && cmp -s "$tmp/body" "$tmp/cli_step3.json" && ok || bad "upload $uid: trace?step=3: HTTP $got, not the bytes of trace slice --step 3"
"$GPUPROF" trace slice "$fix" --from 1700000596690 --to 1700000597690 -o "$tmp/cli_ft.json"
got=$(status "${url}api/file/$uid/trace?start_ns=7144617&end_ns=8144617")
[ "$got" = 200 ] && cmp -s "$tmp/body" "$tmp/cli_ft.json" && ok || bad "upload $uid: trace?start_ns: HTTP $got, not the bytes of trace slice --from --to"
got=$(status "${url}api/file/1/trace?range=nope")
[ "$got" = 400 ] && grep -q -- "--range: no user annotation named 'nope'" "$tmp/body" && ok || bad "trace?range=nope: HTTP $got"
# annotations: against the JSON
got=$(status "${url}api/file/1/annotations")
python3 - "$tmp/body" "$fix" <<'PY' && [ "$got" = 200 ] && ok || bad "annotations: HTTP $got, not the trace's user annotations"
import gzip, json, sys
from decimal import Decimal
rows = json.load(open(sys.argv[1]))["annotations"]
evs = json.load(gzip.open(sys.argv[2]), parse_float=Decimal)["traceEvents"]
want = {}
for e in evs:
    if e.get("cat") == "user_annotation" and e.get("ph") == "X":
        ts = int(Decimal(e["ts"]) * 1000)
        n, first = want.get(e["name"], (0, ts))
        want[e["name"]] = (n + 1, min(first, ts))
got = [(r["name"], r["count"], r["first_start_ns"]) for r in rows]
exp = sorted((k, n, f) for k, (n, f) in want.items())
assert got == exp, (got, exp)
assert len(exp) == 11  # 5 names and ProfilerStep#3..8
PY
got=$(status "${url}api/file/1/annotations?x=1")
[ "$got" = 400 ] && ok || bad "annotations?x=1: HTTP $got"
# eight windows at once (more than the four kept), twice: each the CLI's
for round in 1 2; do
	curls=
	for a in 3 4 5 6 7 8 3-4 5-8; do
		curl -s "${url}api/file/1/kernels?step=$a&top=$round" >"$tmp/k$a" &
		curls="$curls $!"
	done
	# shellcheck disable=SC2086
	wait $curls
	for a in 3 4 5 6 7 8 3-4 5-8; do
		"$GPUPROF" kernels --step "$a" --top "$round" --format json "$fix" >"$tmp/want"
		cmp -s "$tmp/want" "$tmp/k$a" && ok || bad "concurrent kernels?step=$a&top=$round differs from the CLI"
	done
done
kill -0 "$pid" 2>/dev/null && ok || bad "the server died"
finish
