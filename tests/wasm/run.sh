#!/bin/sh
# The wasm stage: the WebAssembly build (make wasm, run by node) against the
# native binary. Every golden case (tests/golden/, its expected output; the
# ones tests/wasm/golden-skip names and says why are skipped), summary,
# kernels and ops --format json on every trace of tests/golden/_inputs and
# ncu list on its reports, a bounded set of the real traces and reports of
# ../shared (when present), and bad inputs: byte-identical stdout, stderr
# and exit status; then the static site (make site) in chromium. Skips
# with one line when emcc is not installed. Two checks at a time (xargs
# -P 2): each node start compiles the module.
set -u
root=$(pwd)
if ! command -v emcc >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
	echo "wasm: skipped: emcc or node is not installed (apt-get install emscripten nodejs)"
	echo "wasm: 0 passed, 0 failed"
	exit 0
fi
case $GPUPROF in
/*) ;;
*) GPUPROF=$root/$GPUPROF ;;
esac
WASM_LOGS=$root/$BUILD/wasm-logs
rm -rf "$WASM_LOGS"
mkdir -p "$WASM_LOGS"
if ! ${MAKE:-make} -s wasm site >"$WASM_LOGS/build.log" 2>&1; then
	tail -n 20 "$WASM_LOGS/build.log"
	echo "wasm: 0 passed, 1 failed"
	exit 1
fi
GPUPROF_WASM_JS=$root/build/wasm/gpuprof.js
WASM_CMD=$root/tests/wasm/gpuprof-node
export GPUPROF GPUPROF_WASM_JS WASM_CMD WASM_LOGS

jobs=$WASM_LOGS/jobs
: >"$jobs"
# every golden case but the skipped ones
for dir in tests/golden/*/; do
	[ -f "$dir/cmd" ] || continue
	name=$(basename "$dir")
	grep -q "^$name:" tests/wasm/golden-skip && continue
	echo "sh tests/wasm/golden.sh $root/$dir" >>"$jobs"
done
# the views on every golden input, JSON out
in=tests/golden/_inputs
for f in "$in"/*.json; do
	b=$(basename "$f")
	for v in summary kernels ops; do
		echo "sh tests/wasm/compare.sh $v/$b $root/$in $v $b --format json" >>"$jobs"
	done
done
for f in "$in"/*.ncu-rep; do
	b=$(basename "$f")
	echo "sh tests/wasm/compare.sh ncu-list/$b $root/$in ncu list $b --format json" >>"$jobs"
done
# bad inputs: the same one line, exit 2
bad=$WASM_LOGS/bad
mkdir -p "$bad"
printf '{"traceEvents": [{"ph": "X", "ts": 1,' >"$bad/cut.json"
printf '{"traceEvents": [{"ph": "X" "ts": 1}]}' >"$bad/syntax.json"
printf 'not a trace\n' >"$bad/text.txt"
: >"$bad/empty.json"
printf '\037\213\010\000\000\000\000\000\000\003garbage-deflate' >"$bad/garbage.json.gz"
head -c 200 tests/golden/_inputs/tiny.ncu-rep >"$bad/cut.ncu-rep"
for b in cut.json syntax.json text.txt empty.json cut.ncu-rep missing.json; do
	echo "sh tests/wasm/compare.sh bad/$b $bad summary $b --format json" >>"$jobs"
done
# real traces and reports, when ../shared is there: a bounded set
sh_data=../shared/data
if [ -d "$sh_data" ]; then
	for f in torch/tb_plugin_samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz \
		torch/hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
		torch/tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz \
		torch/hta/tests/data/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz; do
		[ -f "$sh_data/$f" ] || continue
		for v in summary kernels; do
			echo "sh tests/wasm/compare.sh shared/$v/$(basename "$f") $root/$sh_data/$(dirname "$f") $v $(basename "$f") --format json" >>"$jobs"
		done
	done
	for f in ncu2023.2_a10_default_105kernels.ncu-rep ncu2025.3_rtx3080ti_full_probeffma.ncu-rep \
		ncu2021.1_gtx1660s_raytracer.ncu-rep; do
		[ -f "$sh_data/ncu/$f" ] || continue
		echo "sh tests/wasm/compare.sh shared/ncu-list/$f $root/$sh_data/ncu ncu list $f --format json" >>"$jobs"
	done
else
	echo "wasm: ../shared/data absent: real traces skipped"
fi
tr '\n' '\0' <"$jobs" | xargs -0 -P 2 -n 1 sh -c >"$WASM_LOGS/results" 2>&1
# corrupt gzip: the same line but for the inflater's words for the cause
# (ISA-L's in the native build, io/inflate.c's here), exit 2, no output
gz_line() { sed 's/\(corrupt gzip data (member [0-9]*)\): .*/\1: CAUSE/'; }
n=$(cd "$bad" && "$GPUPROF" summary garbage.json.gz --format json 2>&1 >/dev/null; echo "exit $?")
w=$(cd "$bad" && "$WASM_CMD" summary garbage.json.gz --format json 2>&1 >/dev/null; echo "exit $?")
if [ "$(echo "$n" | gz_line)" = "$(echo "$w" | gz_line)" ] && echo "$n" | grep -q 'corrupt gzip data' &&
	[ "$(echo "$w" | wc -l)" -eq 2 ] && [ "${w##*exit }" = 2 ]; then
	echo "ok bad/garbage.json.gz" >>"$WASM_LOGS/results"
else
	printf 'FAIL bad/garbage.json.gz\nnative: %s\nwasm: %s\n' "$n" "$w" >>"$WASM_LOGS/results"
fi
echo "bad/garbage.json.gz" >>"$jobs"
# the static site in chromium (tests/web/site.test.mjs), when the browser
# tests can run here
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -d tests/web/node_modules/playwright-core ]; then
	if (cd tests/web && node --test site.test.mjs) >"$WASM_LOGS/site.log" 2>&1 &&
		grep -q '^# pass [1-9]' "$WASM_LOGS/site.log" && grep -q '^# fail 0$' "$WASM_LOGS/site.log"; then
		echo "ok site/overview" >>"$WASM_LOGS/results"
	else
		echo "FAIL site/overview (tests/web/site.test.mjs)" >>"$WASM_LOGS/results"
		tail -n 30 "$WASM_LOGS/site.log" >>"$WASM_LOGS/results"
	fi
	echo "site/overview" >>"$jobs"
else
	echo "wasm: chromium or playwright-core absent: the static site's browser test skipped"
fi
grep -v '^ok ' "$WASM_LOGS/results"
pass=$(grep -c '^ok ' "$WASM_LOGS/results")
fail=$(grep -c '^FAIL ' "$WASM_LOGS/results")
total=$(wc -l <"$jobs")
if [ $((pass + fail)) -ne "$total" ]; then
	echo "wasm: $total checks, $((pass + fail)) reported"
	fail=$((fail + total - pass - fail))
fi
echo "wasm: $(grep -c '^[a-z]' tests/wasm/golden-skip) golden cases skipped (tests/wasm/golden-skip)"
echo "wasm: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
