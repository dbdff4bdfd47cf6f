#!/bin/sh
# Rank summaries: `gpuprof rank-summary` and `gpuprof dist` over summaries.
# dist over summaries (and over any mix of summaries and traces) must print
# exactly the bytes dist prints over the traces, in every format and mode:
# on the two-trace fixture, on 8 synthetic ranks, on the real two-rank HTA
# pair and torch-tb-profiler's distributed cases (when ../shared is there;
# skipped otherwise). Values of the fixture's summary are checked against
# the trace by hand, and bad input gets exit 2, one message and no file.
# The closing line is "fleet: N passed, N failed".
set -u
root=$(pwd)
shared=${GPUPROF_SHARED:-$root/../shared}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL fleet: $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-fleet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
G=$GPUPROF

# same WHAT TRACES... -- SUMMARIES...: dist over both, every format, same bytes
same() {
	what=$1
	shift
	tr=""
	while [ "$1" != "--" ]; do
		tr="$tr $1"
		shift
	done
	shift
	for fmt in table csv json; do
		# shellcheck disable=SC2086
		"$G" -q dist $mode --format "$fmt" $tr >"$tmp/want" 2>"$tmp/want.err"
		rw=$?
		"$G" -q dist $mode --format "$fmt" "$@" >"$tmp/got" 2>"$tmp/got.err"
		rg=$?
		if [ "$rw" -ne 0 ]; then
			bad "$what ($fmt$mode): dist over the traces failed: $(cat "$tmp/want.err")"
		elif [ "$rg" -ne 0 ]; then
			bad "$what ($fmt$mode): dist over summaries failed: $(cat "$tmp/got.err")"
		elif cmp -s "$tmp/want" "$tmp/got"; then
			ok
		else
			bad "$what ($fmt$mode): output differs from dist over the traces"
		fi
	done
}

# summarize DIR TRACE...: DIR/<n>.json for the n-th trace (from 0)
summarize() {
	d=$1
	shift
	mkdir -p "$d"
	n=0
	for t in "$@"; do
		# shellcheck disable=SC2086
		if "$G" -q rank-summary $mode "$t" -o "$d/$n.json"; then ok; else bad "rank-summary $t"; fi
		n=$((n + 1))
	done
}

# 1. the fixture: hand-checked values, then equality
f0=tests/golden/_inputs/twostep_0.pt.trace.json
f1=tests/golden/_inputs/twostep_1.pt.trace.json
mode=""
"$G" rank-summary "$f0" -o "$tmp/f0.json" 2>"$tmp/err" && ok || bad "rank-summary $f0: $(cat "$tmp/err")"
s=$(cat "$tmp/f0.json")
# nccl:all_reduce at ts 1054 inside c10d's op (1050, 40 µs) and its
# record_param_comms (allreduce, Float, 256 elements); its kernel
# ncclDevKernel_AllReduce at 1070 for 80 µs; [[256]] float = 1024 B
# (version 2) its lead-in window is step 1's start (1000 µs) to its
# kernel's (1070 µs): gemm ran 1020-1060 (compute 40 µs), no data loader,
# idle 70 - 40 = 30 µs
case $s in *'{"name":0,"start":1050000,"end":1090000,"bytes":1024,"step":1,"op":"allreduce","in_nelems":256,"dtype":"Float","compute":40000,"input":0,"idle":30000,"ranges":[[1050000,1090000],[1070000,1150000]]}'*) ok ;; *) bad "fixture: first all_reduce" ;; esac
case $s in *'"op":"_allgather_base","in_nelems":512,"dtype":"BFloat16"'*) ok ;; *) bad "fixture: the all_gather's arguments" ;; esac
case $s in *'"rank":0,"world_size":2,"backend":"nccl"'*) ok ;; *) bad "fixture: distributedInfo" ;; esac
case $s in *'"names":["nccl:all_reduce","_allgather_base"]'*) ok ;; *) bad "fixture: names" ;; esac
[ "$(grep -c '^{"name":[0-9]' "$tmp/f0.json")" -eq 3 ] && ok || bad "fixture: 3 collectives"
case $s in '{"kind":"gpuprof-rank-summary","schema_version":2,'*) ok ;; *) bad "fixture: kind first" ;; esac
"$G" rank-summary "$f1" -o "$tmp/f1.json.gz" && ok || bad "rank-summary -o .gz"
gzip -dc "$tmp/f1.json.gz" >"$tmp/f1.json" 2>/dev/null && ok || bad ".gz output is not gzip"
"$G" rank-summary "$f1" -o - >"$tmp/f1.stdout" && cmp -s "$tmp/f1.stdout" "$tmp/f1.json" && ok || bad "-o - differs from -o FILE"
same "fixture" "$f0" "$f1" -- "$tmp/f0.json" "$tmp/f1.json.gz"
same "fixture, mixed" "$f0" "$f1" -- "$tmp/f0.json" "$f1"
same "fixture, mixed the other way" "$f0" "$f1" -- "$f0" "$tmp/f1.json"
same "fixture, --names" --names a,b "$f0" "$f1" -- --names a,b "$tmp/f0.json" "$tmp/f1.json"
for tb in "--table commops" "--table workers" "--table waittime"; do
	# shellcheck disable=SC2086
	same "fixture, $tb" $tb "$f0" "$f1" -- $tb "$tmp/f0.json" "$tmp/f1.json"
done
"$G" -q rank-summary --step 2 "$f0" -o "$tmp/s0.json" && "$G" -q rank-summary --step 2 "$f1" -o "$tmp/s1.json" && ok || bad "rank-summary --step"
same "fixture, --step 2" --step 2 "$f0" "$f1" -- "$tmp/s0.json" "$tmp/s1.json"
mode=" --tb-compat"
"$G" -q rank-summary --tb-compat "$f0" -o "$tmp/c0.json" && "$G" -q rank-summary --tb-compat "$f1" -o "$tmp/c1.json" && ok || bad "rank-summary --tb-compat"
same "fixture" "$f0" "$f1" -- "$tmp/c0.json" "$tmp/c1.json"
mode=""
"$G" info "$tmp/f0.json" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'rank summary' "$tmp/err" && grep -q 'gpuprof dist' "$tmp/err" && ok || bad "info names a rank summary: $(cat "$tmp/err")"

# 2. bad input: exit 2, one line naming the file (and the offset), nothing written
bad_dist() { # what file expected-message-regex [options]
	what=$1 file=$2 re=$3
	shift 3
	"$G" -q dist "$@" "$file" "$f1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -le 2 ] && grep -Eq "$re" "$tmp/err"; then
		ok
	else
		bad "$what: exit $rc, $(cat "$tmp/err")"
	fi
}
head -c 300 "$tmp/f0.json" >"$tmp/cut.json"
bad_dist "a cut summary" "$tmp/cut.json" 'cut\.json.*(300|offset|byte).*cut short'
sed 's/"start":1050000/"start":1.5e6/' "$tmp/f0.json" >"$tmp/float.json"
bad_dist "a float time" "$tmp/float.json" 'float\.json.*start: expected an integer'
sed 's/"schema_version":2/"schema_version":3/' "$tmp/f0.json" >"$tmp/v3.json"
bad_dist "schema_version 3" "$tmp/v3.json" 'v3\.json.*schema_version 3'
sed 's/\[\[1050000,1090000\]/[[1090000,1050000]/' "$tmp/f0.json" >"$tmp/rev.json"
bad_dist "a range ending first" "$tmp/rev.json" 'rev\.json.*end is before the start'
sed 's/{"name":0,"start":1390000/{"name":7,"start":1390000/' "$tmp/f0.json" >"$tmp/idx.json"
bad_dist "a name index out of range" "$tmp/idx.json" 'idx\.json.*name: 7 is out of range'
sed 's/"start":1390000,//' "$tmp/f0.json" >"$tmp/nostart.json"
bad_dist "a call without start" "$tmp/nostart.json" 'nostart\.json: byte [0-9]+: collectives\[\]: needs name, start'
sed 's/"gpus":\[/"gpuz":[/' "$tmp/f0.json" >"$tmp/nogpu.json"
bad_dist "no gpus" "$tmp/nogpu.json" 'nogpu\.json.*needs "gpus"'
bad_dist "the other mode" "$tmp/c0.json" 'c0\.json.*--tb-compat'
bad_dist "--step over a summary" "$tmp/f0.json" 'rank summary: --step and --range' --step 1
"$G" -q rank-summary tests/golden/err-syntax/syntax.json -o "$tmp/no.json" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/no.json" ] && grep -q 'syntax.json' "$tmp/err" && ok || bad "rank-summary of a broken trace: $(cat "$tmp/err")"
"$G" -q rank-summary "$f0" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '-o FILE is required' "$tmp/err" && ok || bad "rank-summary without -o"
"$G" -q rank-summary "$f0" "$f1" -o "$tmp/two.json" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -e "$tmp/two.json" ] && ok || bad "rank-summary of two traces"
[ -z "$(ls "$tmp" | grep '\.tmp\.')" ] && ok || bad "a temporary file was left"

# 3. 8 synthetic ranks
n=0
while [ $n -lt 8 ]; do
	"$G" -q synth --ranks 8 --rank $n --steps 3 --seed $((n + 1)) -o "$tmp/rank$n.json" || bad "synth rank $n"
	n=$((n + 1))
done
ranks="$tmp/rank0.json $tmp/rank1.json $tmp/rank2.json $tmp/rank3.json $tmp/rank4.json $tmp/rank5.json $tmp/rank6.json $tmp/rank7.json"
for mode in "" " --tb-compat"; do
	# shellcheck disable=SC2086
	summarize "$tmp/syn$mode" $ranks
	d="$tmp/syn$mode"
	# shellcheck disable=SC2086
	same "8 synthetic ranks" $ranks -- "$d/0.json" "$d/1.json" "$d/2.json" "$d/3.json" "$d/4.json" "$d/5.json" "$d/6.json" "$d/7.json"
	# shellcheck disable=SC2086
	same "8 synthetic ranks, mixed" $ranks -- "$tmp/rank0.json" "$d/1.json" "$tmp/rank2.json" "$d/3.json" "$d/4.json" "$tmp/rank5.json" "$d/6.json" "$tmp/rank7.json"
done
mode=""
grep -q '^"groups":\[$' "$tmp/syn/3.json" && grep -q '^{"pg":"0","ranks":"\[0, 1, 2, 3, 4, 5, 6, 7\]","size":8}\]' "$tmp/syn/3.json" && grep -q '"group":0,"op":"allreduce",' "$tmp/syn/3.json" && ok || bad "synthetic rank: process group of a call"
tb=$(wc -c <"$tmp/rank0.json")
sb=$(wc -c <"$tmp/syn/0.json")
[ $((sb * 100)) -le "$tb" ] && ok || bad "synthetic summary $sb bytes > 1% of its trace ($tb)"

# 4. real data
hta=$shared/data/torch/hta/tests/data/trace_filter
cases=$shared/data/tbprof/cases
if [ -f "$hta/sampled_rank-0.json.gz" ] && [ -f "$hta/sampled_rank-1.json.gz" ]; then
	for mode in "" " --tb-compat"; do
		summarize "$tmp/hta$mode" "$hta/sampled_rank-0.json.gz" "$hta/sampled_rank-1.json.gz"
		same "HTA pair" "$hta/sampled_rank-0.json.gz" "$hta/sampled_rank-1.json.gz" -- "$tmp/hta$mode/0.json" "$tmp/hta$mode/1.json"
		same "HTA pair, mixed" "$hta/sampled_rank-0.json.gz" "$hta/sampled_rank-1.json.gz" -- "$hta/sampled_rank-0.json.gz" "$tmp/hta$mode/1.json"
	done
	mode=""
	for s in 551 552; do
		"$G" -q rank-summary --step $s "$hta/sampled_rank-0.json.gz" -o "$tmp/h0s.json" && "$G" -q rank-summary --step $s "$hta/sampled_rank-1.json.gz" -o "$tmp/h1s.json" || bad "HTA rank-summary --step $s"
		same "HTA pair, --step $s" --step $s "$hta/sampled_rank-0.json.gz" "$hta/sampled_rank-1.json.gz" -- "$tmp/h0s.json" "$tmp/h1s.json"
	done
else
	echo "fleet: $hta absent: the HTA pair is not checked"
fi
if [ -d "$cases" ]; then
	for w0 in "$cases"/test_distributed_*.worker0.json; do
		[ -f "$w0" ] || continue
		w1=${w0%.worker0.json}.worker1.json
		c=$(basename "${w0%.worker0.json}")
		for mode in "" " --tb-compat"; do
			summarize "$tmp/$c$mode" "$w0" "$w1"
			same "$c" "$w0" "$w1" -- "$tmp/$c$mode/0.json" "$tmp/$c$mode/1.json"
		done
	done
	mode=""
else
	echo "fleet: $cases absent: torch-tb-profiler's distributed cases are not checked"
fi
echo "fleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
