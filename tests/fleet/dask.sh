#!/bin/sh
# contrib/dask/gpuprof_dask.py for real, under Debian's python3-distributed:
# a LocalCluster of 2 worker processes maps `gpuprof rank-summary` over
# DASK_RANKS (default 256) synthetic ranks, tree-reduces them with
# `rank-summary --merge` and runs `gpuprof dist`; its output must equal
# `gpuprof dist` run here over the same summaries, byte for byte, and its
# merge one flat merge of them. A rank that fails once is retried; one
# that fails for good, a refused input and a missing binary get a clear
# message. Every run of the driver is bounded (300 s: exit 124 fails the
# case, where a hang would stall the whole test run). Skipped (one line)
# when ${PYTHON:-/usr/bin/python3} has no distributed. The closing line is "dask: N passed, N failed".
set -u
root=$(pwd)
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL dask: $*"; fail=$((fail + 1)); }
py=${PYTHON:-/usr/bin/python3}
case $GPUPROF in /*) G=$GPUPROF ;; *) G=$root/$GPUPROF ;; esac
drv=$root/contrib/dask/gpuprof_dask.py
if ! "$py" -c 'import distributed' 2>/dev/null; then
	echo "skip dask: $py has no Dask distributed (Debian's python3-distributed)"
	echo "dask: 0 passed, 0 failed"
	exit 0
fi
head -n 1 "$drv" | grep -qx '#!/usr/bin/python3' && ok || bad "the driver's shebang is not /usr/bin/python3"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-dask.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=${DASK_RANKS:-256}
mkdir tr
r=0
while [ $r -lt "$n" ]; do
	"$G" -q synth --ranks "$n" --rank $r --steps 2 --gzip -o "tr/$(printf 'rank%05d' $r).pt.trace.json.gz" || bad "synth rank $r"
	r=$((r + 1))
done

# the real run: 2 worker processes, a tree of merges 16 wide
timeout -k 5 300 "$py" "$drv" tr/*.pt.trace.json.gz -o out --workers 2 --gpuprof "$G" >log 2>&1 && ok || bad "the driver failed: $(tail -n 3 log)"
cat log
[ "$(ls out/summaries | wc -l)" -eq "$n" ] && ok || bad "not $n summaries"
grep -q "^gpuprof_dask: map $n/$n$" log && grep -q 'reduce level [0-9]*: 1 merge$' log && ok || bad "no progress lines"
"$G" -q dist out/summaries/*.json -o want.txt && cmp -s want.txt out/dist.txt && ok || bad "the driver's dist differs from dist over its summaries"
"$G" -q rank-summary --merge out/summaries/*.json -o flat.json && cmp -s flat.json out/merged.json && ok || bad "the tree of merges differs from one merge"
last=$(printf 'rank%05d' $((n - 1)))
grep -q "^$last " out/dist.txt && ok || bad "$last is not in dist's output"
[ ! -e out/reduce.tmp ] && ok || bad "the reduce's temporary folder is left"

# --format json, and a rank that fails once: retried, same result
cat >flaky <<EOF
#!/bin/sh
# fails the first time it summarises rank00003
case "\$*" in *rank00003*)
	if [ ! -e "$tmp/failed-once" ]; then : >"$tmp/failed-once"; echo "flaky: first try" >&2; exit 1; fi ;;
esac
exec "$G" "\$@"
EOF
chmod +x flaky
# with Dask's default dashboard port 8787 held by another program (another
# cluster): -q still prints nothing (the driver asks for any free port)
"$py" -c 'import socket, sys, time
s = socket.socket()
try:
    s.bind(("127.0.0.1", 8787)); s.listen()
except OSError:
    pass  # held already: the case stands as it is
open(sys.argv[1], "w").close()
time.sleep(120)' held8787 &
holder=$!
i=0
while [ ! -e held8787 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
timeout -k 5 300 "$py" "$drv" tr/rank0000[0-7].pt.trace.json.gz -o out2 --workers 2 --gpuprof ./flaky --retries 1 --format json -q >log2 2>&1 && ok || bad "a retried rank: $(cat log2)"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
[ -e failed-once ] && ok || bad "the flaky rank did not fail"
"$G" -q dist --format json out2/summaries/*.json -o want.json && cmp -s want.json out2/dist.json && ok || bad "after a retry: dist differs"
[ ! -s log2 ] && ok || bad "-q printed: $(cat log2)"
rm -f failed-once
timeout -k 5 300 "$py" "$drv" tr/rank0000[0-7].pt.trace.json.gz -o out3 --workers 2 --gpuprof ./flaky --retries 0 -q >log3 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'rank00003.pt.trace.json.gz: rank-summary failed after 1 tries (1 of 8 traces failed): flaky: first try' log3 && ok || bad "a failed rank without retries: exit $rc: $(cat log3)"

# errors
echo 'not a trace' >bad.json
timeout -k 5 300 "$py" "$drv" tr/rank00000.pt.trace.json.gz bad.json -o out4 --workers 1 --gpuprof "$G" --retries 0 -q >log4 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'bad.json: rank-summary failed after 1 tries.*bad.json' log4 && ok || bad "a refused input: exit $rc: $(cat log4)"
timeout -k 5 300 "$py" "$drv" tr/rank00000.pt.trace.json.gz -o out5 --gpuprof "$tmp/nope" >log5 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'no gpuprof binary' log5 && ok || bad "a missing binary: exit $rc: $(cat log5)"
timeout -k 5 300 "$py" "$drv" nothere.json -o out6 --gpuprof "$G" >log6 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'nothere.json: no such file' log6 && ok || bad "a missing trace: exit $rc: $(cat log6)"
timeout -k 5 300 "$py" "$drv" tr/rank00001.pt.trace.json.gz "$tmp/tr/rank00001.pt.trace.json.gz" -o out8 --gpuprof "$G" >log8 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'rank00001.pt.trace.json.gz: given twice' log8 && ok || bad "a trace given twice: exit $rc: $(cat log8)"
timeout -k 5 300 "$py" "$drv" tr/rank00000.pt.trace.json.gz -o out7 --workers 2 --scheduler tcp://x:1 >log7 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'not allowed with' log7 && ok || bad "--workers with --scheduler: exit $rc: $(cat log7)"
echo "dask: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
