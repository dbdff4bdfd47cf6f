#!/bin/sh
# Runs every test stage against $GPUPROF (the binary) and $BUILD (its build
# folder), and prints the closing line "N passed, N failed" summed over the
# stages. Each stage prints its own "<stage>: N passed, N failed" line; a stage
# that ends without one (a crash) counts as one failure. TEST_STAGES, when
# set, names the stages to run (space-separated); the others are skipped.
# SKIP_STAGES names stages not to run (make check's sanitizer build skips
# wasm and website, whose engine is built alike whatever the native flags;
# website is the browser suite on the static site). The tb
# stages run their causes' golden fixtures first (tests/tbprof/fixtures.sh).
set -u
: "${BUILD:?}" "${GPUPROF:?}"
export GPUPROF
pass=0
fail=0
stage() {
	name=$1
	shift
	case " ${TEST_STAGES:-$name} " in
	*" $name "*) ;;
	*) return ;;
	esac
	case " ${SKIP_STAGES:-} " in
	*" $name "*) return ;;
	esac
	log=$BUILD/test-$name.log
	"$@" >"$log" 2>&1
	rc=$?
	cat "$log"
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed$" "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: stage ended without a summary (exit $rc): counted as 1 failure"
		fail=$((fail + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
	pass=$((pass + p))
	fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "$name: exit status $rc with no failed test: counted as 1 failure"
		fail=$((fail + 1))
	fi
}
stage unit "$BUILD/unit-tests"
stage golden sh tests/golden/run.sh
stage fuzz sh tests/fuzz/replay.sh
stage cli sh tests/cli/run.sh
stage hugepages sh tests/cli/hugepages.sh
stage ncu sh tests/ncu/check.sh
stage export sh tests/export/check.sh
stage slice sh tests/slice/check.sh
stage shared sh tests/shared/run.sh
stage tbsteps sh tests/tbprof/fixtures.sh tbsteps steps-residue-tbcompat steps-wide-span-tbcompat \
	summary-gpu-float64-tbcompat -- sh tests/tbprof/steps.sh
stage tbops sh tests/tbprof/fixtures.sh tbops ops-bwd-rewrite-tbcompat ops-bwd-insert-tbcompat \
	ops-float64-tbcompat ops-residue-tbcompat ops-tbcompat-json kernels-op-strtid-tbcompat \
	kernels-missing-tbcompat kernels-op-tbcompat-json -- sh tests/tbprof/ops.sh
stage amd sh tests/tbprof/amd.sh
stage tbmemory sh tests/tbprof/fixtures.sh tbmemory memory-bwd-rewrite-tbcompat memory-tbcompat-json \
	memory-events-tbcompat-csv -- sh tests/tbprof/memory.sh
stage tbmodules sh tests/tbprof/fixtures.sh tbmodules modules-tbcompat modules-epoch-tbcompat \
	lightning-modules -- sh tests/tbprof/modules.sh
stage tbdist sh tests/tbprof/fixtures.sh tbdist dist-lone-param-comms dist-tbcompat-json \
	dist-tbcompat-no-view -- sh tests/tbprof/dist.sh
stage fleet sh tests/fleet/run.sh
stage fleetmerge sh tests/fleet/merge.sh
stage dask sh tests/fleet/dask.sh
stage stragglers sh tests/fleet/stragglers.sh
stage synthfleet sh tests/fleet/synth.sh
stage fleetv2 sh tests/fleet/v2.sh
stage hta python3 tests/hta/check.py "$GPUPROF"
stage diff sh tests/diff/run.sh
stage diffkinds sh tests/diff/run.sh kinds
stage nsys sh tests/nsys/check.sh
stage server sh tests/server/check.sh
stage pkg sh tests/pkg/run.sh
stage hostile sh tests/hostile/run.sh
stage schemas sh tests/schemas/run.sh
stage pandas sh tests/pandas/run.sh
stage web sh tests/web/run.sh
stage wasm sh tests/wasm/run.sh
stage website env GPUPROF_BACKEND=site sh tests/web/run.sh
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
