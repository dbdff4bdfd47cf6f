#!/bin/sh
# Synthetic fleets of `gpuprof synth` beyond the straggler: a slow link
# (--slow-link R:FACTOR) as `dist --fleet` sees it in bandwidth, skew,
# stragglers and balance, against values computed from the traces' own
# kernels; collectives as PyTorch 2.x writes them (--comms pt2: Seq, Rank,
# the rank list cut after 30); the old NCCL kernel names; many collectives
# per step and worlds beyond 1,024 ranks; the option errors. The closing
# line is "synthfleet: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL synthfleet: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-synthfleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# absolute: some checks run the binary from inside a temporary folder
case $GPUPROF in /*) G=$GPUPROF ;; *) G=$(pwd)/$GPUPROF ;; esac
expect() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}
# fleet DIR N [synth options]: DIR/rR.json for R in 0..N-1, summaries DIR/sR.json
fleet() {
	d=$1 n=$2
	shift 2
	mkdir -p "$d"
	r=0
	while [ "$r" -lt "$n" ]; do
		"$G" -q synth --ranks "$n" --rank "$r" "$@" -o "$d/r$r.json" || bad "synth $* rank $r"
		"$G" -q rank-summary "$d/r$r.json" -o "$d/s$r.json" || bad "rank-summary $* rank $r"
		r=$((r + 1))
	done
}
table() {
	d=$1 t=$2
	shift 2
	"$G" -q dist --fleet --format csv --table "$t" "$@" "$d"/r*.json
}
# nccl_durs FILE: the NCCL kernels' durations in ns, one a line, in order
# (the trace writes microseconds with three decimals: drop the point)
nccl_durs() {
	grep '"cat": "kernel", "name": "nccl' "$1" | sed -E 's/.*"dur": ([0-9]+)\.([0-9]{3}),.*/\1\2/' | sed 's/^0*\([0-9]\)/\1/'
}

# 1. a slow link: 4 ranks, one step, rank 1's link at half bandwidth
# (--slow-link 1:2). The fleet's one process group spans the world, so
# every all-reduce has rank 1 and lasts twice as long on every rank; the
# same numbers are drawn, so each kernel is exactly 2 x its duration in
# the fleet without the option.
b=$tmp/base s=$tmp/slow
fleet "$b" 4 --steps 1
fleet "$s" 4 --steps 1 --slow-link 1:2
nccl_durs "$b/r0.json" >"$tmp/db"
nccl_durs "$s/r0.json" >"$tmp/ds"
expect "slow: 6 all-reduces" "$(wc -l <"$tmp/db" | tr -d ' ') $(wc -l <"$tmp/ds" | tr -d ' ')" "6 6"
expect "slow: each kernel 2x" "$(paste "$tmp/db" "$tmp/ds" | awk '$2 != 2 * $1' | wc -l | tr -d ' ')" 0
for r in 1 2 3; do
	nccl_durs "$s/r$r.json" | cmp -s - "$tmp/ds" && ok || bad "slow: rank $r's kernels differ from rank 0's"
done
# bandwidth: t = the instance's shortest duration = its kernel (all ranks
# equal): Σ t over the rows = Σ of the kernels; bytes and instances as
# without the link; time 2x, so algbw and busbw halve
bb=$(table "$b" bandwidth | sed 1d)
sb=$(table "$s" bandwidth | sed 1d)
expect "slow bandwidth: Σ time = Σ kernels" "$(echo "$sb" | awk -F, '{t += $6} END {print t}')" "$(awk '{t += $1} END {print t}' "$tmp/ds")"
expect "slow bandwidth: same buckets, bytes, instances" "$(echo "$sb" | cut -d, -f1-5 | tr '\n' ' ')" "$(echo "$bb" | cut -d, -f1-5 | tr '\n' ' ')"
expect "slow bandwidth: time 2x" "$(paste -d, "$(printf '%s\n' "$bb" >"$tmp/bb"; echo "$tmp/bb")" "$(printf '%s\n' "$sb" >"$tmp/sb"; echo "$tmp/sb")" | awk -F, '$15 != 2 * $6' | wc -l | tr -d ' ')" 0
expect "slow bandwidth: algbw and busbw halve" "$(paste -d, "$tmp/bb" "$tmp/sb" | awk -F, '{d1 = $16 - $7 / 2; d2 = $18 - $9 / 2; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2; if (d1 > 1e-9 * $7 || d2 > 1e-9 * $9) print}' | wc -l | tr -d ' ')" 0
# skew: a slow link is not a straggler: every rank starts and ends each
# all-reduce together (arrival skew, exit skew, duration spread all 0) and
# nobody arrives last
expect "slow skew: all 0" "$(table "$s" skew | sed 1d | cut -d, -f5-8 | sort -u)" "4,0,0,0"
expect "slow skew_collectives" "$(table "$s" skew_collectives | sed 1d | cut -d, -f3-)" "6,0,0,0,0,0,0"
expect "slow stragglers: nobody last" "$(table "$s" stragglers | sed 1d | cut -d, -f4-7 | sort -u)" "0,0,0,0"
# balance: the NCCL stream ends the backward pass (the step waits for it),
# so the step lasts Σ of the added time longer, on every rank: Σ base
# kernels (each doubled)
lb=$(table "$b" balance | sed -n 2p | cut -d, -f3)
ls_=$(table "$s" balance | sed -n 2p)
expect "slow balance: + Σ added" "$(echo "$ls_" | cut -d, -f3)" "$((lb + $(awk '{t += $1} END {print t}' "$tmp/db")))"
expect "slow balance: equal ranks" "$(echo "$ls_" | awk -F, '{print ($3 == $5)}')" 1
# over summaries = over traces
"$G" -q dist --fleet --format csv "$s"/r*.json >"$tmp/want"
"$G" -q dist --fleet --format csv "$s"/s*.json >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && ok || bad "slow: summaries differ from traces"
# a factor that is not a whole number rounds each kernel to the ns
fleet "$tmp/s15" 2 --steps 1 --slow-link 0:1.5
nccl_durs "$tmp/s15/r0.json" >"$tmp/d15"
fleet "$tmp/b2" 2 --steps 1
expect "slow 1.5: each kernel rounded" "$(nccl_durs "$tmp/b2/r0.json" | paste - "$tmp/d15" | awk '{w = int($1 * 1.5 + 0.5); if ($2 != w) print}' | wc -l | tr -d ' ')" 0

# 2. many collectives, PyTorch 2.x arguments, a straggler: 16 ranks of the
# tiny model, 200 all-reduces per step, 2 steps, rank 13 late by 30 ms at
# each step's first all-reduce: it arrives last twice, the 15 others wait
# 30 ms each time: 2 x 15 x 30 ms = 900,000,000 ns
p=$tmp/pt2
fleet "$p" 16 --model tiny --steps 2 --collectives 200 --comms pt2 --straggler 13:+30ms
expect "pt2 straggler first" "$(table "$p" stragglers | sed -n 2p | cut -d, -f1-7)" "r13,13,400,2,900000000,450000000,0"
expect "pt2 others wait 60 ms" "$(table "$p" stragglers | sed '1,2d' | cut -d, -f4-7 | sort -u)" "0,0,0,60000000"
expect "pt2 skew: 400 instances" "$(table "$p" skew | sed 1d | wc -l | tr -d ' ')" 400
# (every call has its Seq, from 1 per group: the instances are matched by
# it, and the call column shows it, docs/dist.md "Instances")
expect "pt2 skew: the injected two" "$(table "$p" skew --top 2 | sed 1d | cut -d, -f3,6-10 | tr '\n' ' ')" "1,30000000,0,30000000,r0,r13 201,30000000,0,30000000,r0,r13 "
expect "pt2 bandwidth: 12 sizes" "$(table "$p" bandwidth | sed 1d | cut -d, -f2 | tr '\n' ' ')" "4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304 8388608 "
# Seq: 1..400 on each rank's record_param_comms and kernels, in order
expect "pt2 Seq on the ops" "$(grep '"name": "record_param_comms"' "$p/r5.json" | sed -E 's/.*"Seq": ([0-9]+).*/\1/' | tr '\n' ' ' | md5sum)" "$(seq 1 400 | tr '\n' ' ' | md5sum)"
expect "pt2 Seq on the kernels" "$(grep '"cat": "kernel", "name": "nccl' "$p/r5.json" | sed -E 's/.*"Seq": ([0-9]+).*/\1/' | tr '\n' ' ' | md5sum)" "$(seq 1 400 | tr '\n' ' ' | md5sum)"
expect "pt2 Rank" "$(grep -o '"Rank": [0-9]*' "$p/r5.json" | sort -u)" '"Rank": 5'
expect "pt2 kernel nelems = op nelems" "$(grep '"cat": "kernel", "name": "nccl' "$p/r5.json" | grep -o '"In msg nelems": [0-9]*' | md5sum)" "$(grep '"name": "record_param_comms"' "$p/r5.json" | grep -o '"In msg nelems": [0-9]*' | md5sum)"
"$G" -q dist --format csv "$p"/r*.json >"$tmp/want"
"$G" -q dist --format csv "$p"/s*.json >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" && ok || bad "pt2: dist over summaries differs from dist over traces"

# 3. beyond 1,024 ranks: the rank list cut after 30 as PyTorch writes it;
# 8,192 ranks accepted, 8,193 refused
"$G" -q synth --model tiny --ranks 4096 --rank 4095 --steps 1 --collectives 200 --comms pt2 --gzip -o "$tmp/w.json.gz" || bad "synth 4096 ranks"
expect "4096: rank list" "$(gzip -dc "$tmp/w.json.gz" | grep -o '"Process Group Ranks": "[^"]*"' | sort -u)" \
	'"Process Group Ranks": "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, ...]"'
# a 4,096-rank set stays small: under 40 KB a rank (gzip), 200 calls a step
sz=$(wc -c <"$tmp/w.json.gz")
[ "$sz" -lt 40000 ] && ok || bad "4096: $sz bytes a rank"
"$G" -q rank-summary "$tmp/w.json.gz" -o "$tmp/w.sum.json" || bad "rank-summary 4096"
expect "4096: summary's rank and world" "$(grep -o '"rank":[0-9]*,"world_size":[0-9]*' "$tmp/w.sum.json")" '"rank":4095,"world_size":4096'
expect "4096: one group, 200 calls" "$(grep -o '"pg":"0"' "$tmp/w.sum.json" | wc -l | tr -d ' ') $(grep -o '"group":0,' "$tmp/w.sum.json" | wc -l | tr -d ' ')" "1 200"
"$G" -q synth --model tiny --ranks 8192 --rank 8191 --steps 1 -o "$tmp/x.json" && ok || bad "8192 ranks refused"
expect "8192: distributedInfo" "$(grep -o '"world_size": [0-9]*' "$tmp/x.json")" '"world_size": 8192'

# 4. the old NCCL kernel names: the same fleet tables as the new ones
fleet "$tmp/old" 4 --steps 2 --nccl-kernels old --straggler 2:+1ms
fleet "$tmp/dev" 4 --steps 2 --straggler 2:+1ms
expect "old names written" "$(grep -c '"name": "ncclKernel_AllReduce_RING_LL_Sum_float' "$tmp/old/r0.json") $(grep -c ncclDevKernel "$tmp/old/r0.json")" "12 0"
(cd "$tmp/old" && "$G" -q dist --fleet --format csv r*.json) >"$tmp/a"
(cd "$tmp/dev" && "$G" -q dist --fleet --format csv r*.json) >"$tmp/b"
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && ok || bad "old kernel names: dist --fleet differs (or is empty)"

# 5. resnet: --collectives N splits the 6 buckets into N calls, same bytes in all
fleet "$tmp/r20" 2 --steps 1 --collectives 20
expect "resnet 20 calls" "$(grep -c '"name": "record_param_comms"' "$tmp/r20/r0.json")" 20
expect "resnet: same bytes" "$(grep '"name": "record_param_comms"' "$tmp/r20/r0.json" | sed -E 's/.*"In msg nelems": ([0-9]+).*/\1/' | awk '{t += $1} END {print t}')" \
	"$(grep '"name": "record_param_comms"' "$b/r0.json" | sed -E 's/.*"In msg nelems": ([0-9]+).*/\1/' | awk '{t += $1} END {print t}')"

# 6. option errors: exit 2, one line, no file
for v in "--slow-link 1" "--slow-link 1:" "--slow-link 1:0" "--slow-link 1:-2" "--slow-link 1:nan" "--slow-link 1:inf" "--slow-link 1:2x" "--slow-link 4:2" "--slow-link x:2" "--slow-link 1:1001" \
	"--collectives 5" "--collectives x" "--collectives 100001" "--comms pt3" "--nccl-kernels new" "--ranks 8193" "--model tiny --slow-link 0:2" "--model tiny --straggler 0:+1ms"; do
	# shellcheck disable=SC2086
	"$G" synth --ranks 4 $v -o "$tmp/bad.json" >"$tmp/out" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(grep -c '^gpuprof: ' "$tmp/out")" -eq 1 ] && [ ! -e "$tmp/bad.json" ]; then ok; else bad "$v: exit $rc, $(cat "$tmp/out")"; fi
done

echo "synthfleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
