#!/bin/sh
# The fleet tables of `gpuprof dist --fleet` (stragglers, skew,
# skew_collectives, bandwidth, balance) on synthetic fleets with a known
# straggler (`gpuprof synth --straggler R:+TIME`), against values computed
# by hand from the injected delay; dist --fleet over rank summaries equals
# dist --fleet over the traces in every format; without --fleet the output
# is what it always was; bad --straggler values get exit 2 and one line.
# The closing line is "stragglers: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL stragglers: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-strag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
G=$GPUPROF

# fleet DIR N STEPS [synth options]: DIR/rR.json for R in 0..N-1, and
# their summaries DIR/sR.json
fleet() {
	d=$1 n=$2 steps=$3
	shift 3
	mkdir -p "$d"
	r=0
	while [ "$r" -lt "$n" ]; do
		"$G" -q synth --ranks "$n" --rank "$r" --steps "$steps" "$@" -o "$d/r$r.json" || bad "synth rank $r"
		"$G" -q rank-summary "$d/r$r.json" -o "$d/s$r.json" || bad "rank-summary rank $r"
		r=$((r + 1))
	done
}

# table DIR NAME [options]: dist --fleet's table NAME as CSV over DIR's traces
table() {
	d=$1 t=$2
	shift 2
	"$G" -q dist --fleet --format csv --table "$t" "$@" "$d"/r?.json
}

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# 1. 8 ranks (process group "0", as synth writes it), 3 steps, rank 3 late by 30 ms before each step's first
# all-reduce. Every rank draws the same numbers, so the ranks differ only
# by the injected time: at the first all-reduce of each step (calls 0, 6,
# 12: a step has 6 gradient buckets) r3 arrives 30 ms after the 7 others,
# which wait 30 ms each; all exit together; r3's kernel lasts 30 ms less.
# So per step: arrival skew 30,000,000 ns, exit skew 0, duration spread
# 30,000,000; r3 arrives last 3 times and the others wait for it
# 3 x 7 x 30 ms = 630,000,000 ns (210,000,000 per instance); each other
# rank waits 3 x 30 ms = 90,000,000 ns; r3 waits 0.
f=$tmp/f8
fleet "$f" 8 3 --straggler 3:+30ms
s=$(table "$f" stragglers)
expect "stragglers: header" "$(echo "$s" | sed -n 1p)" "worker,rank,instances,arrived_last,others_waited_ns,avg_others_waited_ns,waited_ns,step_mean_ns,step_time_rank,late_compute_ns,late_input_ns,late_launch_ns,cause"
# the cause: r3 computed 30 ms more than the median before each of the 3
# late all-reduces (the injected kernel), its data loading and idle time
# as the others': late_compute 3 x 30 ms, cause compute
expect "stragglers: the cause" "$(echo "$s" | sed -n 2p | cut -d, -f1,10-13)" "r3,90000000,0,0,compute"
expect "stragglers: no cause for the others" "$(echo "$s" | sed -n '3,$p' | cut -d, -f10-13 | sort -u)" "0,0,0,"
expect "stragglers: the culprit first" "$(echo "$s" | sed -n 2p | cut -d, -f1-7)" "r3,3,18,3,630000000,210000000,0"
expect "stragglers: rows" "$(echo "$s" | wc -l | tr -d ' ')" 9
expect "stragglers: the others" "$(echo "$s" | sed -n '3,$p' | cut -d, -f1,3-7 | tr '\n' ' ')" \
	"r0,18,0,0,0,90000000 r1,18,0,0,0,90000000 r2,18,0,0,0,90000000 r4,18,0,0,0,90000000 r5,18,0,0,0,90000000 r6,18,0,0,0,90000000 r7,18,0,0,0,90000000 "
k=$(table "$f" skew --top 4)
expect "skew --top 4" "$(echo "$k" | sed -n '2,$p' | tr '\n' ' ')" \
	"nccl:all_reduce,0,0,3,8,30000000,0,30000000,r0,r3 nccl:all_reduce,0,6,4,8,30000000,0,30000000,r0,r3 nccl:all_reduce,0,12,5,8,30000000,0,30000000,r0,r3 nccl:all_reduce,0,1,3,8,0,0,0,r0,r0 "
expect "skew: all instances" "$(table "$f" skew | wc -l | tr -d ' ')" 19
expect "skew: only the injected ones" "$(table "$f" skew | sed -n '5,$p' | cut -d, -f6-8 | sort -u)" "0,0,0"
c=$(table "$f" skew_collectives)
expect "skew_collectives" "$(echo "$c" | sed -n '2,$p')" "nccl:all_reduce,0,18,90000000,5000000,30000000,0,0,30000000"
# bandwidth: all_reduce on 8 ranks: bus factor 2(8-1)/8 = 1.75; bus
# bandwidth = algorithm bandwidth x 1.75; Σ instances = 18
b=$(table "$f" bandwidth)
expect "bandwidth: factor" "$(echo "$b" | sed -n '2,$p' | cut -d, -f1,3,8 | sort -u)" "nccl:all_reduce,8,1.75"
expect "bandwidth: instances" "$(echo "$b" | sed -n '2,$p' | awk -F, '{n += $4} END {print n}')" 18
expect "bandwidth: bus = alg x 1.75" "$(echo "$b" | sed -n '2,$p' | awk -F, '{d = $9 - $7 * 1.75; if (d < 0) d = -d; if (d > 1e-9 * $9) print "off: " $0}')" ""
expect "bandwidth: alg = bytes / time" "$(echo "$b" | sed -n '2,$p' | awk -F, '{d = $7 - $5 / $6; if (d < 0) d = -d; if (d > 1e-9 * $7) print "off: " $0}')" ""
# bandwidth on the two-rank fixture: all_reduce of 256 Float = 1024 B,
# 2 calls, bus factor 2(2-1)/2 = 1; _allgather_base of 512 BFloat16 =
# 1024 B in, S = 2 x 1024 (the gathered buffer), factor (2-1)/2 = 0.5
fx=tests/golden/_inputs/twostep
expect "bandwidth: fixture" "$("$G" -q dist --fleet --format csv --table bandwidth ${fx}_0.pt.trace.json ${fx}_1.pt.trace.json | sed -n '2,$p' | cut -d, -f1-5,8 | tr '\n' ' ')" \
	"nccl:all_reduce,1024,2,2,2048,1 _allgather_base,2048,2,1,2048,0.5 "
# balance: every rank is 30 ms late after the first all-reduce, so all
# steps last equally on every rank: min = median = max
l=$(table "$f" balance)
expect "balance: steps" "$(echo "$l" | sed -n '2,$p' | cut -d, -f1,2,6,7 | tr '\n' ' ')" "3,8,r0,r0 4,8,r0,r0 5,8,r0,r0 "
expect "balance: min = median = max" "$(echo "$l" | sed -n '2,$p' | awk -F, '$3 != $4 || $4 != $5')" ""

# instances are per process group: r3's calls put in group "7" (its
# summary edited) match nobody: group "0" (7 ranks) has no skew, group "7"
# one rank, and nobody is late
sed 's/"pg":"0"/"pg":"7"/g' "$f/s3.json" >"$tmp/s3pg7.json"
g=$("$G" -q dist --fleet --format csv --table skew_collectives "$f"/s[0124567].json "$tmp/s3pg7.json")
expect "groups apart" "$(echo "$g" | sed -n '2,$p' | cut -d, -f1-4 | tr '\n' ' ')" "nccl:all_reduce,0,18,0 nccl:all_reduce,7,18,0 "
expect "groups apart: ranks" "$(
	"$G" -q dist --fleet --format csv --table skew "$f"/s[0124567].json "$tmp/s3pg7.json" | sed -n '2,$p' | cut -d, -f2,5 | sort | uniq -c | tr -s ' ' | tr '\n' ' '
)" " 18 0,7  18 7,1 "
expect "groups apart: nobody late" "$("$G" -q dist --fleet --format csv --table stragglers "$f"/s[0124567].json "$tmp/s3pg7.json" | sed -n '2,$p' | cut -d, -f4 | sort -u)" 0

# 2. the same fleet without a straggler: every rank identical, no skew
z=$tmp/z8
fleet "$z" 8 2
expect "no straggler: nobody last" "$(table "$z" stragglers | sed -n '2,$p' | cut -d, -f4-7 | sort -u)" "0,0,0,0"
expect "no straggler: no skew" "$(table "$z" skew | sed -n '2,$p' | cut -d, -f6-8 | sort -u)" "0,0,0"
# the straggler is found at any rank: rank 0 of 4, by 5 ms
y=$tmp/y4
fleet "$y" 4 2 --straggler 0:+5ms
expect "rank 0 of 4 by 5 ms" "$(table "$y" stragglers | sed -n 2p | cut -d, -f1-7)" "r0,0,12,2,30000000,15000000,0"

# 3. over summaries (and mixed) = over traces, every format, and the
# tb-profiler tables are unchanged by --fleet (they come first)
for fmt in table csv json; do
	"$G" -q dist --fleet --format $fmt "$f"/r?.json >"$tmp/want" 2>&1
	"$G" -q dist --fleet --format $fmt "$f"/s?.json >"$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "--fleet $fmt: summaries differ from traces"
	"$G" -q dist --fleet --format $fmt "$f"/s0.json "$f"/r1.json "$f"/s2.json "$f"/r3.json "$f"/s4.json "$f"/r5.json "$f"/s6.json "$f"/r7.json >"$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got" && ok || bad "--fleet $fmt: a mix differs from traces"
done
"$G" -q dist --format json "$f"/r?.json >"$tmp/plain"
mkdir -p "$tmp/dir" "$tmp/dir0"
"$G" -q dist --fleet --format csv -o "$tmp/dir/" "$f"/s?.json && ok || bad "--fleet -o DIR/"
for t in stragglers skew skew_collectives bandwidth balance overlap commops; do
	[ -s "$tmp/dir/$t.csv" ] && ok || bad "-o DIR/: no $t.csv"
done
"$G" -q dist --format csv -o "$tmp/dir0/" "$f"/s?.json
[ ! -e "$tmp/dir0/stragglers.csv" ] && ok || bad "without --fleet: stragglers.csv written"
"$G" -q dist --fleet --format json "$f"/r?.json >"$tmp/fleet.json"
${PYTHON:-/usr/bin/python3} - "$tmp/plain" "$tmp/fleet.json" <<'EOF' && ok || bad "--fleet changed the tb-profiler tables"
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
new = {"stragglers", "skew", "skew_collectives", "bandwidth", "balance"}
cols = {k: v for k, v in b["columns"].items() if k not in new}
rest = {k: v for k, v in b.items() if k not in new and k != "columns"}
a_rest = {k: v for k, v in a.items() if k != "columns"}
sys.exit(0 if rest == a_rest and cols == a["columns"] and new <= set(b) and new <= set(b["columns"]) else 1)
EOF

# 4. the real two-rank HTA pair: summaries = traces with --fleet too
hta=$shared/data/torch/hta/tests/data/trace_filter
if [ -f "$hta/sampled_rank-0.json.gz" ]; then
	"$G" -q rank-summary "$hta/sampled_rank-0.json.gz" -o "$tmp/h0.json"
	"$G" -q rank-summary "$hta/sampled_rank-1.json.gz" -o "$tmp/h1.json"
	for fmt in table json; do
		"$G" -q dist --fleet --format $fmt "$hta/sampled_rank-0.json.gz" "$hta/sampled_rank-1.json.gz" >"$tmp/want"
		"$G" -q dist --fleet --format $fmt "$tmp/h0.json" "$tmp/h1.json" >"$tmp/got"
		cmp -s "$tmp/want" "$tmp/got" && ok || bad "HTA --fleet $fmt: summaries differ"
	done
else
	echo "stragglers: $hta absent: the HTA pair is not checked"
fi

# 4b. untrusted summaries: kernels at -2^61 + 952 on one rank and
# 2^61 - 52 on the other (the extremes a summary may hold) make each wait
# 4,611,686,018,427,386,904 ns; three of them do not fit 64 bits: the
# sums saturate at 2^63 - 1 instead of wrapping
"$G" -q rank-summary ${fx}_0.pt.trace.json -o "$tmp/x0.json"
"$G" -q rank-summary ${fx}_1.pt.trace.json -o "$tmp/x1.json"
sed -E 's/\],\[[0-9]+,[0-9]+\]\]\}/],[-2305843009213693000,-2305843009213692000]]}/' "$tmp/x0.json" >"$tmp/y0.json"
sed -E 's/\],\[[0-9]+,[0-9]+\]\]\}/],[2305843009213693900,2305843009213693901]]}/' "$tmp/x1.json" >"$tmp/y1.json"
o=$("$G" -q dist --fleet --format csv --table stragglers "$tmp/y0.json" "$tmp/y1.json" 2>&1)
expect "saturated sums" "$(echo "$o" | sed -n '2,$p' | cut -d, -f1,4,5,7 | tr '\n' ' ')" \
	"twostep_1,3,9223372036854775807,0 twostep_0,0,0,9223372036854775807 "

# a NUL in a summary's string (raw or as \u0000) is refused: exit 2, one
# line naming the file and the byte, nothing written
sed 's/"backend":"nccl"/"backend":"nc\\u0000cl"/' "$tmp/x0.json" >"$tmp/nul.json"
"$G" -q dist --fleet -o "$tmp/nul.out" "$tmp/nul.json" "$tmp/x1.json" >"$tmp/out" 2>&1
rc=$?
expect "NUL in a string" "$rc $(cat "$tmp/out") $([ -e "$tmp/nul.out" ] && echo written)" \
	"2 gpuprof: error: $tmp/nul.json: byte $(($(grep -bo '"backend":' "$tmp/nul.json" | cut -d: -f1) + 10)): backend: a NUL character in the string "

# 5. bad --straggler values: exit 2, one message (and the usage hint), no file
for v in 3 3:30ms 3:+ 3:+30 x:+1ms 3:+0ms 8:+1ms; do
	"$G" synth --ranks 8 --straggler "$v" -o "$tmp/bad.json" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(grep -c '^gpuprof: synth: --straggler' "$tmp/out")" -eq 1 ] && [ ! -e "$tmp/bad.json" ]; then ok; else bad "--straggler $v: exit $rc, $(cat "$tmp/out")"; fi
done
"$G" synth --ranks 1 --straggler 0:+1ms -o "$tmp/bad.json" >"$tmp/out" 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/bad.json" ] && ok || bad "--straggler with one rank"
"$G" synth --model tiny --straggler 0:+1ms -o "$tmp/bad.json" >"$tmp/out" 2>&1
[ $? -eq 2 ] && [ ! -e "$tmp/bad.json" ] && ok || bad "--straggler with the tiny model"

# 6. without --straggler, synth writes what it wrote before: the base
# fleet's rank 0 of 8 ranks is the default trace of seed 1
"$G" -q synth --steps 2 -o "$tmp/default.json"
cmp -s "$tmp/default.json" "$z/r0.json" && ok || bad "synth --ranks 8 --rank 0 differs from the default"

echo "stragglers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
