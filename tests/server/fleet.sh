#!/bin/sh
# The distributed view over rank summaries: `gpuprof serve DIR` of a
# directory of summaries loads each (kind rank-summary, in name order),
# /api/dist over them is `gpuprof dist` over them (fleet=1: --fleet, top=N:
# --top N), the summaries are the default workers when traces are loaded
# beside them, an uploaded summary is a worker too, and the errors are the
# CLI's (step= on a summary) or say what is wrong (top= without fleet=1).
part=fleet
. tests/server/lib.sh
mkdir -p "$tmp/sums" "$tmp/tr"
for r in 0 1 2; do
	"$GPUPROF" -q synth --ranks 3 --rank $r --steps 2 --straggler 2:+5ms -o "$tmp/tr/r$r.json"
	"$GPUPROF" -q rank-summary "$tmp/tr/r$r.json" -o "$tmp/sums/r$r.json"
done
echo 'not a summary' >"$tmp/sums/notes.txt"
start_server "$tmp/sums" "$tmp/tr/r0.json"
s="$tmp/sums"
same() {
	q=$1; shift
	got=$(status "${url}api/dist?$q")
	"$GPUPROF" dist --format json "$@" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "dist?$q: HTTP $got, differs from 'gpuprof dist $*'"; fi
}
expect 200 "files" "${url}api/files"
python3 - "$tmp/body" <<'PY' && ok || bad "the files: $(cat "$tmp/body")"
import json, sys
f = json.load(open(sys.argv[1]))["files"]
assert [(x["id"], x["name"], x["kind"]) for x in f] == [
    (1, "r0.json", "rank-summary"), (2, "r1.json", "rank-summary"), (3, "r2.json", "rank-summary"),
    (4, "r0.json", "torch")], f
PY
same '' "$s/r0.json" "$s/r1.json" "$s/r2.json"
same 'fleet=1' --fleet "$s/r0.json" "$s/r1.json" "$s/r2.json"
same 'fleet=1&top=2' --fleet --top 2 "$s/r0.json" "$s/r1.json" "$s/r2.json"
same 'files=3,1&fleet=1' --fleet "$s/r2.json" "$s/r0.json"
same 'files=1,2,3&names=a,b,c&fleet=1' --fleet --names a,b,c "$s/r0.json" "$s/r1.json" "$s/r2.json"
# a mix of a summary and its own rank's trace is what the CLI says too
same 'files=4,2,3&fleet=1' --fleet "$tmp/tr/r0.json" "$s/r1.json" "$s/r2.json"
# by hand: r2 is the straggler, 2 steps x 2 others x 5 ms waited for it
python3 - "$tmp/body" <<'PY' && ok || bad "fleet=1: the straggler"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["stragglers"][0]
assert (r["worker"], r["arrived_last"], r["others_waited_ns"]) == ("r2", 2, 20000000), r
PY
expect 400 "top without fleet" "${url}api/dist?top=2"
grep -qF 'top needs fleet=1' "$tmp/body" && ok || bad "top without fleet: $(cat "$tmp/body")"
expect 400 "top=-1" "${url}api/dist?fleet=1&top=-1"
got=$(status "${url}api/dist?fleet=1&step=3")
[ "$got" = 400 ] && grep -qF '"r0.json is a rank summary: --step and --range apply when it is made (gpuprof rank-summary --step ...)"' "$tmp/body" && ok || bad "step= on summaries: HTTP $got $(cat "$tmp/body")"
# an uploaded summary: a worker named as its summary says
expect 200 "upload a summary" "${url}api/upload?name=up.json" --data-binary @"$s/r1.json"
grep -q '"kind": "rank-summary"' "$tmp/body" && ok || bad "the upload is not a rank summary: $(cat "$tmp/body")"
same 'files=1,5&fleet=1' --fleet "$s/r0.json" "$s/r1.json"
finish
