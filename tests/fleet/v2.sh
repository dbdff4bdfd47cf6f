#!/bin/sh
# Rank summaries of version 2 (docs/dist.md): the values they add,
# computed by hand on small fixtures (tests/fleet/fixtures/); the straggler
# causes (input and launch here, compute in the stragglers stage); the
# collective instances keyed by sequence number; the process groups
# listed once; version 1 summaries (written by the version 1 writer, kept
# in tests/fleet/fixtures/v1/) still read, and dist over them prints what
# it printed. The closing line is "fleetv2: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL fleetv2: $*"; fail=$((fail + 1)); }
expect() { # WHAT GOT WANT
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-fleetv2.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
G=$GPUPROF
fx=tests/fleet/fixtures
f0=tests/golden/_inputs/twostep_0.pt.trace.json

# 1. the values of the two-step fixture (rank 0), by hand from its events
"$G" -q rank-summary "$f0" -o "$tmp/t0.json" || bad "rank-summary $f0"
s=$(cat "$tmp/t0.json")
# step 1 [1000, 1200] µs; its kernels gemm 1020-1060, the all-reduce's
# 1070-1150, the all-gather's 1160-1190: busy 40 + 80 + 30 = 150 µs;
# step 2 [1300, 1500]: gemm 1320-1380, all-reduce 1410-1450, elementwise
# 1460-1470: 110 µs; the breakdowns are `gpuprof steps`' (which counts
# from the trace's start, 1000 µs)
case $s in *'"start":1000000,"end":1200000,"breakdown":{"kernel":70000,"memcpy":0,"memset":0,"communication":90000,"runtime":5000,"dataloader":0,"cpu_exec":5000,"other":30000},"gpu_busy":[{"gpu":0,"busy":150000}]}'*) ok ;; *) bad "step 1" ;; esac
case $s in *'"start":1300000,"end":1500000,"breakdown":{"kernel":70000,"memcpy":0,"memset":0,"communication":56000,"runtime":5000,"dataloader":0,"cpu_exec":9000,"other":60000},"gpu_busy":[{"gpu":0,"busy":110000}]}'*) ok ;; *) bad "step 2" ;; esac
steps=$("$G" -q steps --format csv --table steps "$f0" | sed -n "2,\$p" | cut -d, -f4-11 | tr "\n" " ")
expect "steps: gpuprof steps' breakdown" "$steps" "70000,0,0,90000,5000,0,5000,30000 70000,0,0,56000,5000,0,9000,60000 "
# kernels by total time: the all-reduce's 80 + 40, gemm 40 + 60, the
# all-gather's 30, elementwise 10; compute 110, communication 150 µs
case $s in *'"kernels":{"top_n":20,"top":[
{"name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","calls":2,"total":120000},
{"name":"gemm","calls":2,"total":100000},
{"name":"ncclDevKernel_AllGather_RING_LL","calls":1,"total":30000},
{"name":"elementwise","calls":1,"total":10000}],"rest":{"names":0,"calls":0,"total":0},"types":{"compute":110000,"comm":150000,"memory":0}}'*) ok ;; *) bad "kernels" ;; esac
# the second call: the all-gather's kernel at 1160, after the all-reduce
# exited at 1150: a window of 10 µs with no kernel, all idle
case $s in *'"op":"_allgather_base","in_nelems":512,"dtype":"BFloat16","compute":0,"input":0,"idle":10000,'*) ok ;; *) bad "the all-gather's lead-in" ;; esac
# memory peaks are `gpuprof memory`'s
"$G" -q rank-summary tests/golden/_inputs/memory.json -o "$tmp/m.json" || bad "rank-summary memory.json"
expect "memory peaks" "$(grep '^"memory"' "$tmp/m.json")" '"memory":[{"device":"cpu","peak_allocated":null,"peak_reserved":null},{"device":"cuda:0","peak_allocated":1053440,"peak_reserved":2097152}]}'
expect "memory: gpuprof memory's peaks" "$("$G" -q memory --table peaks --format csv tests/golden/_inputs/memory.json | sed -n 3p)" "cuda:0,7,1053440,2097152"
# the kernel cut-off: 25 distinct names, the first 20 kept, 5 summed
python3 - "$tmp/k.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000}]
for i in range(25):
    ev.append({"ph": "X", "cat": "kernel", "name": "k%02d" % i, "pid": 0, "tid": 7, "ts": 10 * i,
               "dur": 1 + i, "args": {"device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$G" -q rank-summary "$tmp/k.json" -o "$tmp/ks.json" || bad "rank-summary k.json"
# kept k24 (25 µs) .. k05 (6 µs); the rest k04..k00: 5 + 4 + 3 + 2 + 1 = 15 µs
expect "kernels: 20 kept" "$(grep -c '^{"name":"k' "$tmp/ks.json")" 20
case $(cat "$tmp/ks.json") in *'{"name":"k05","calls":1,"total":6000}],"rest":{"names":5,"calls":5,"total":15000}'*) ok ;; *) bad "kernels: the rest" ;; esac

# 2. straggler causes on hand-made fleets of 3 ranks (one all-reduce in
# group "0", "Seq" 7; ranks 0 and 1 alike, rank 2 late by 30 µs):
# input: rank 2's data loader runs 40 µs (the others' 10), its gemm and the
# collective follow 30 µs later; the window is the step's start to the
# kernel (1000-1100 on rank 2, 1000-1070 on the others): compute 40 on all,
# input 40 against the median 10: late_input 30,000 ns, cause input.
# launch: same data loading and gemm, but rank 2's host is busy
# (aten::item 1062-1092) and enqueues the collective at 1095: idle
# (neither kernel nor data loader) 100 - 40 - 10 = 50 against the median
# 70 - 40 - 10 = 20: late_launch 30,000 ns, cause launch.
for k in input launch; do
	for r in 0 1 2; do
		"$G" -q rank-summary "$fx/${k}_$r.pt.trace.json" -o "$tmp/${k}_$r.json" || bad "rank-summary $k $r"
	done
	for ops in "$fx/${k}_0.pt.trace.json $fx/${k}_1.pt.trace.json $fx/${k}_2.pt.trace.json" \
		"$tmp/${k}_0.json $tmp/${k}_1.json $tmp/${k}_2.json" "$tmp/${k}_0.json $fx/${k}_1.pt.trace.json $tmp/${k}_2.json"; do
		# shellcheck disable=SC2086
		got=$("$G" -q dist --fleet --format csv --table stragglers $ops | sed -n 2p)
		case $k in
		input) want="${k}_2,2,1,1,60000,60000,0,200000,1,0,30000,0,input" ;;
		launch) want="${k}_2,2,1,1,60000,60000,0,200000,1,0,0,30000,launch" ;;
		esac
		expect "$k: the culprit and its cause ($ops)" "$got" "$want"
	done
	expect "$k: the late rank's lead-in" "$(grep -o '"compute":[0-9]*,"input":[0-9]*,"idle":[0-9]*' "$tmp/${k}_2.json")" \
		"$([ $k = input ] && echo '"compute":40000,"input":40000,"idle":20000' || echo '"compute":40000,"input":10000,"idle":50000')"
	expect "$k: the others' lead-in" "$(grep -o '"compute":[0-9]*,"input":[0-9]*,"idle":[0-9]*' "$tmp/${k}_0.json")" '"compute":40000,"input":10000,"idle":20000'
	for fmt in table json; do
		"$G" -q dist --fleet --format $fmt "$fx/${k}_0.pt.trace.json" "$fx/${k}_1.pt.trace.json" "$fx/${k}_2.pt.trace.json" >"$tmp/want"
		"$G" -q dist --fleet --format $fmt "$tmp/${k}_0.json" "$tmp/${k}_1.json" "$tmp/${k}_2.json" >"$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" && ok || bad "$k --format $fmt: summaries differ from traces"
	done
done
# a straggler with no reason the summary can tell (its collective's kernel
# merely starts later): cause other
sed 's/"compute":40000,"input":40000,"idle":20000/"compute":40000,"input":10000,"idle":20000/' "$tmp/input_2.json" >"$tmp/other_2.json"
expect "cause other" "$("$G" -q dist --fleet --format csv --table stragglers "$tmp/input_0.json" "$tmp/input_1.json" "$tmp/other_2.json" | sed -n 2p | cut -d, -f1,10-13)" "input_2,0,0,0,other"

# 3. instances by sequence number: the call's number is its "Seq" (7);
# a summary without sequence numbers gives the n-th call (0) again
expect "instance by seq" "$("$G" -q dist --fleet --format csv --table skew "$tmp"/input_?.json | sed -n 2p)" "allreduce,0,7,1,3,30000,0,30000,input_0,input_2"
sed 's/"seq":7,//' "$tmp/input_2.json" >"$tmp/noseq_2.json"
expect "instance by call number when a rank has no seq" "$("$G" -q dist --fleet --format csv --table skew "$tmp/input_0.json" "$tmp/input_1.json" "$tmp/noseq_2.json" | sed -n 2p)" "allreduce,0,0,1,3,30000,0,30000,input_0,input_2"
# by seq, a rank whose window starts one call later still lines up: rank
# 2's call renumbered 8 is an instance of its own (call 8, 1 rank), rank 0
# and 1's call 7 another (2 ranks, no skew)
sed 's/"seq":7,/"seq":8,/' "$tmp/input_2.json" >"$tmp/seq8_2.json"
expect "instances apart by seq" "$("$G" -q dist --fleet --format csv --table skew "$tmp/input_0.json" "$tmp/input_1.json" "$tmp/seq8_2.json" | sed -n '2,$p' | cut -d, -f3,5,6 | sort | tr '\n' ' ')" "7,2,0 8,1,0 "
# the trace's numbers are kept only when a group's calls go up by one:
# the fixture's call renumbered in the trace keeps it (one call)
sed 's/"Seq": 7/"Seq": 12/' "$fx/input_0.pt.trace.json" >"$tmp/s12.pt.trace.json"
"$G" -q rank-summary "$tmp/s12.pt.trace.json" -o "$tmp/s12.json" && grep -q '"seq":12,' "$tmp/s12.json" && ok || bad "a trace's Seq kept"

# each pass over the workers numbers the calls afresh: one worker, or a
# collective only the first worker has, gives its calls 0, 1, ... and no
# wait (the second pass once went on counting from the first)
expect "one worker" "$("$G" -q dist --fleet --format csv --table stragglers "$f0" | sed -n 2p)" "twostep_0,0,3,0,0,0,0,200000,1,0,0,0,"
expect "a collective of the first worker only" "$("$G" -q dist --fleet --format csv --table skew "$fx/input_0.pt.trace.json" "$f0" | sed -n '2,$p' | cut -d, -f1-5 | sort | tr '\n' ' ')" \
	"_allgather_base,,0,1,1 allreduce,0,7,1,1 nccl:all_reduce,,0,1,1 nccl:all_reduce,,1,2,1 "

# 4. the process groups are listed once: a rank of a world of 1,024 (each
# call's group names 1,024 ranks) is within 6 KB of one of 8
"$G" -q synth --ranks 8 --rank 5 --steps 4 -o "$tmp/w8.json" && "$G" -q synth --ranks 1024 --rank 5 --steps 4 -o "$tmp/w1024.json" || bad "synth"
"$G" -q rank-summary "$tmp/w8.json" -o "$tmp/w8s.json" && "$G" -q rank-summary "$tmp/w1024.json" -o "$tmp/w1024s.json" || bad "rank-summary w"
n8=$(wc -c <"$tmp/w8s.json")
n1024=$(wc -c <"$tmp/w1024s.json")
[ $((n1024 - n8)) -lt 6000 ] && ok || bad "summary of a 1,024-rank world: $n1024 bytes against $n8 for 8 ranks"
expect "one group" "$(grep -c '^{"pg":' "$tmp/w1024s.json")" 1

# 5. version 1 summaries: read, and dist prints what the version 1 reader
# printed (the fleet tables but the straggler causes: null there)
v1=$fx/v1
"$G" -q dist --format csv "$v1/twostep_0.json" "$v1/twostep_1.json" | cmp -s - "$v1/twostep.dist.want" && ok || bad "v1: dist over the fixture's summaries"
"$G" -q dist --format csv "$v1"/s?.json | cmp -s - "$v1/s.dist.want" && ok || bad "v1: dist over synthetic summaries"
for t in skew skew_collectives bandwidth balance; do
	"$G" -q dist --fleet --format csv --table $t "$v1"/s?.json | cmp -s - "$v1/s.$t.want" && ok || bad "v1: --fleet --table $t"
done
"$G" -q dist --fleet --format csv --table stragglers "$v1"/s?.json >"$tmp/st.csv"
expect "v1: stragglers as before" "$(cut -d, -f1-9 "$tmp/st.csv" | sed -n '2,$p')" "$(sed -n '2,$p' "$v1/s.stragglers.want")"
expect "v1: causes unknown" "$(cut -d, -f10-13 "$tmp/st.csv" | sed -n '2,$p' | sort -u)" ",,,"
# a mix of versions reads; a merge keeps each object as written
"$G" -q rank-summary --merge "$tmp/input_2.json" "$v1/s1.json" "$v1/s0.json" -o "$tmp/mix.json" && ok || bad "merge of v1 and v2"
expect "merge of v1 and v2: versions kept" "$(grep -o "\"schema_version\":[0-9]" "$tmp/mix.json" | tr "\n" " ")" "\"schema_version\":1 \"schema_version\":1 \"schema_version\":2 "

echo "fleetv2: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
