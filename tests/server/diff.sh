#!/bin/sh
# API tests of GET /api/diff (called by tests/server/check.sh; run from the
# repository root with GPUPROF set). On synthetic pairs written here by
# `gpuprof synth` (a trace, a copy with the sgemm kernels twice as long, a
# copy with step 5 slowed by 3 ms) served from the command line:
#   - the answer is byte for byte `gpuprof [--step/--range] diff --format
#     json [options] BASE NEW` for the same files, in both orders and for a
#     file against itself, with top, exact_names, one and two fail_if (a
#     gate that trips: still 200, the gate "tripped" in the answer),
#     min_abs, step=, step=A-B and range=;
#   - the same for two Nsight Compute reports (metric= repeatable, gates;
#     concurrent answers on one report) and two Nsight Systems files (run
#     directories, an analysis.json, SQLite exports, in any mix);
#   - 404 for an unknown id (base or new); 400 for a missing or malformed
#     id, two files of different kinds, step=/range= on reports and
#     analyses, an unknown parameter (with did-you-mean), an option or a
#     gate that does not apply or read and a step a file lacks (the CLI's
#     messages);
#   - an upload compared with a file of the command line: the CLI's tables.
# Closing line "diff: N passed, N failed".
part=diff
. tests/server/lib.sh
ncu=tests/golden/_inputs/tiny.ncu-rep
synth="$GPUPROF -q synth --model tiny --steps 6"
$synth -o "$tmp/a.json" && $synth --scale-kernel sgemm=2 -o "$tmp/k.json" &&
	$synth --slow-step 5=3ms -o "$tmp/s.json" || { bad "synth failed"; finish; }
# Nsight Systems pairs (as the golden cases nsys-diff-runs and
# nsys-diff-sqlite make them): a run directory and a copy with a slower
# inference range and resize; an analysis.json of the first; an export and
# a copy with one range longer
cp -r tests/nsys/run_small "$tmp/nb" && cp -r tests/nsys/run_small "$tmp/nn" && cp -r tests/nsys/run_small "$tmp/na" &&
	sed -i 's/^:inference,2720,1800,/:inference,2720,2700,/' "$tmp/nn/stats/nsys_nvtx_gpu_proj_trace.csv" &&
	sed -i 's/^51200,52050,850,0,850,:resize/51200,52250,1050,0,1050,:resize/' "$tmp/nn/stats/nsys_nvtx_pushpop_trace.csv" &&
	$GPUPROF nsys analyze -q --run-dir "$tmp/na" --from-csv --nsys-version 2025.1 >/dev/null &&
	python3 -c "import sys, shutil, sqlite3; sys.path.insert(0, 'tests/nsys'); import check_sqlite as c; c.make_tiny(sys.argv[1] + '/a.sqlite', True); shutil.copy(sys.argv[1] + '/a.sqlite', sys.argv[1] + '/b.sqlite'); db = sqlite3.connect(sys.argv[1] + '/b.sqlite'); db.execute('update NVTX_EVENTS set end = 205 where start = 110'); db.commit()" "$tmp" ||
	{ bad "nsys inputs failed"; finish; }
nb=tests/golden/_inputs/ncu-diff-base.ncu-rep nn=tests/golden/_inputs/ncu-diff-new.ncu-rep
# files 1 a, 2 k, 3 s, 4 and 5 the tiny report, 6 and 7 the ncu diff pair,
# 8 and 9 the run directories, 10 the analysis.json, 11 and 12 the exports
start_server "$tmp/a.json" "$tmp/k.json" "$tmp/s.json" "$ncu" "$ncu" "$nb" "$nn" "$tmp/nb" "$tmp/nn" \
	"$tmp/na/analysis.json" "$tmp/a.sqlite" "$tmp/b.sqlite"
path_of() {
	case $1 in
	1) echo "$tmp/a.json" ;; 2) echo "$tmp/k.json" ;; 3) echo "$tmp/s.json" ;;
	4 | 5) echo "$ncu" ;; 6) echo "$nb" ;; 7) echo "$nn" ;; 8) echo "$tmp/nb" ;; 9) echo "$tmp/nn" ;;
	10) echo "$tmp/na/analysis.json" ;; 11) echo "$tmp/a.sqlite" ;; 12) echo "$tmp/b.sqlite" ;;
	esac
}
# same B N QUERY [GLOBAL...] -- [OPTIONS...]: /api/diff?base=B&new=N&QUERY
# equals `gpuprof GLOBAL... diff --format json OPTIONS... BASE NEW`
same() {
	b=$1 n=$2 q=$3
	shift 3
	glob=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do glob="$glob $1"; shift; done
	[ $# -gt 0 ] && shift
	got=$(status "${url}api/diff?base=$b&new=$n${q:+&$q}")
	# shellcheck disable=SC2086
	"$GPUPROF" $glob diff --format json "$@" "$(path_of "$b")" "$(path_of "$n")" >"$tmp/want" 2>/dev/null
	if [ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body"; then ok; else bad "base=$b&new=$n&$q: HTTP $got, differs from 'gpuprof$glob diff $*'"; fi
}
same 1 2 ""
same 2 1 ""
same 1 3 ""
same 1 1 ""
same 1 2 "top=2" -- --top 2
same 1 2 "exact_names=1" -- --exact-names
same 1 2 "fail_if=kernel%5Bsgemm%5D.total_ns%3E%2B50%25" -- --fail-if 'kernel[sgemm].total_ns>+50%'
same 1 3 "fail_if=step_time%3E%2B5%25&fail_if=steps%5Btotal%5D.mean_ns%3E%2B1us" -- --fail-if 'step_time>+5%' --fail-if 'steps[total].mean_ns>+1us'
same 1 2 "min_abs=1ms&fail_if=kernels.total_ns%3E%2B1%25" -- --min-abs 1ms --fail-if 'kernels.total_ns>+1%'
same 1 3 "step=5" --step 5 --
same 1 3 "step=4-6&top=3" --step 4-6 -- --top 3
same 1 2 "range=ProfilerStep%234" --range 'ProfilerStep#4' --
# two Nsight Compute reports: launches and hints, gates, --metric (repeatable)
same 6 7 ""
same 7 6 ""
same 4 5 ""
same 6 6 ""
same 6 7 "exact_names=1&top=1" -- --exact-names --top 1
same 6 7 "fail_if=ncu%5Bgemm%5D.duration_ns%3E%2B24.9%25&fail_if=ncu%5Bgemm%5D.duration_ns%3E%2B25%25" -- --fail-if 'ncu[gemm].duration_ns>+24.9%' --fail-if 'ncu[gemm].duration_ns>+25%'
same 6 7 "metric=dram__bytes_read.sum&metric=launch__grid_size" -- --metric dram__bytes_read.sum --metric launch__grid_size
same 6 7 "min_abs=1us&fail_if=ncu.duration_ns%3E%2B1%25" -- --min-abs 1us --fail-if 'ncu.duration_ns>+1%'
# two Nsight Systems files, in any mix: run directories, an analysis.json,
# exports
same 8 9 ""
same 9 8 ""
same 10 9 ""
same 8 8 ""
same 11 12 ""
same 10 12 ""
same 8 9 "fail_if=nsys%5Binference%5D.gpu_ns%3E%2B5%25&fail_if=iteration.host_inclusive_ns%3E%2B0ns" -- --fail-if 'nsys[inference].gpu_ns>+5%' --fail-if 'iteration.host_inclusive_ns>+0ns'
same 11 12 "top=1&fail_if=nsys%5Bstage%5D.host_inclusive_ns%3E%2B4ns" -- --top 1 --fail-if 'nsys[stage].host_inclusive_ns>+4ns'
# the ncu gates in the answer (the gemm launch is 25% longer)
status "${url}api/diff?base=6&new=7&fail_if=ncu%5Bgemm%5D.duration_ns%3E%2B24.9%25&fail_if=ncu%5Bgemm%5D.duration_ns%3E%2B25%25" >/dev/null
verdicts=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["diff"]["gates_tripped"], *[g["verdict"] for g in d["gates"]])' "$tmp/body")
[ "$verdicts" = "1 tripped passed" ] && ok || bad "ncu gates: '$verdicts', want '1 tripped passed'"
# concurrent diffs of one report against itself and the other (its lock)
pids=
for i in 1 2 3 4 5 6; do
	curl -s -o "$tmp/par$i" "${url}api/diff?base=$((i % 2 + 6))&new=7" &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
"$GPUPROF" diff --format json "$nn" "$nn" >"$tmp/want77" && "$GPUPROF" diff --format json "$nb" "$nn" >"$tmp/want67"
for i in 1 2 3 4 5 6; do
	if [ $((i % 2)) = 1 ]; then w=$tmp/want77; else w=$tmp/want67; fi
	cmp -s "$w" "$tmp/par$i" && ok || bad "concurrent ncu diff $i differs from the CLI's"
done

# the gates in the answer: the first trips (sgemm doubled), the second not
status "${url}api/diff?base=1&new=2&fail_if=kernel%5Bsgemm%5D.total_ns%3E%2B99%25&fail_if=kernel%5Bsgemm%5D.total_ns%3E%2B100%25" >/dev/null
verdicts=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["diff"]["gates_tripped"], *[g["verdict"] for g in d["gates"]])' "$tmp/body")
[ "$verdicts" = "1 tripped passed" ] && ok || bad "gates: '$verdicts', want '1 tripped passed'"

# errors
expect 404 "unknown new" "${url}api/diff?base=1&new=99"
message "no file 99"
expect 404 "unknown base" "${url}api/diff?base=77&new=1"
message "no file 77"
for q in "" "base=1" "new=2" "base=0&new=1" "base=x&new=1" "base=1&new=2x" "base=-1&new=2" "base=1&new="; do
	expect 400 "ids '$q'" "${url}api/diff?$q"
	message "diff takes base=ID and new=ID, two loaded files of one kind"
done
expect 400 "kinds differ" "${url}api/diff?base=1&new=4"
message "diff compares two files of one kind: file 1 (a.json) is a PyTorch trace, file 4 (tiny.ncu-rep) is an Nsight Compute (.ncu-rep) file"
expect 400 "report and analysis" "${url}api/diff?base=6&new=8"
message "diff compares two files of one kind: file 6 (ncu-diff-base.ncu-rep) is an Nsight Compute (.ncu-rep) file, file 8 (nb) is"
expect 400 "step= on reports" "${url}api/diff?base=6&new=7&step=1"
message "diff takes no parameter 'step'"
expect 400 "range= on analyses" "${url}api/diff?base=8&new=9&range=x"
message "diff takes no parameter 'range'"
expect 400 "metric= on traces" "${url}api/diff?base=1&new=2&metric=x"
want=$("$GPUPROF" diff --metric x "$tmp/a.json" "$tmp/k.json" 2>&1 | sed -n 's/^gpuprof: \(error: \)\{0,1\}diff: //p')
msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body")
[ -n "$want" ] && [ "$msg" = "$want" ] && ok || bad "metric on traces: '$msg', want '$want'"
expect 400 "nsys gate of ncu" "${url}api/diff?base=8&new=9&fail_if=ncu.duration_ns%3E%2B1%25"
want=$("$GPUPROF" diff --fail-if 'ncu.duration_ns>+1%' "$tmp/nb" "$tmp/nn" 2>&1 | sed -n 's/^gpuprof: \(error: \)\{0,1\}diff: //p')
msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body")
[ -n "$want" ] && [ "$msg" = "$want" ] && ok || bad "ncu gate on analyses: '$msg', want '$want'"
expect 400 "unknown parameter" "${url}api/diff?base=1&new=2&fail-if=x"
message "diff takes no parameter 'fail-if'; did you mean 'fail_if'?"
expect 400 "files= is /api/dist's" "${url}api/diff?files=1,2"
message "diff takes no parameter 'files'"
# a gate that does not read: the CLI's message
expect 400 "bad gate" "${url}api/diff?base=1&new=2&fail_if=kernels.total_ns%3E%3E1"
want=$("$GPUPROF" diff --fail-if 'kernels.total_ns>>1' "$tmp/a.json" "$tmp/k.json" 2>&1 | sed -n 's/^gpuprof: \(error: \)\{0,1\}diff: //p')
msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body")
[ -n "$want" ] && [ "$msg" = "$want" ] && ok || bad "bad gate: '$msg', want '$want'"
# a step the files lack: the CLI's message, naming the file
expect 400 "no such step" "${url}api/diff?base=1&new=2&step=99"
want=$("$GPUPROF" --step 99 diff "$tmp/a.json" "$tmp/k.json" 2>&1 | sed -n "s|^gpuprof: error: $tmp/||p")
msg=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["message"])' "$tmp/body")
[ "$msg" = "a.json: --step: no step 99 (steps 3 to 8)" ] && [ "$msg" = "$want" ] && ok || bad "no such step: '$msg', want '$want'"

# an upload (file 13) against file 1: the CLI's tables (the upload's path
# in the diff section is its private link, as info's is)
expect 200 "upload" "${url}api/upload?name=k2.json" --data-binary @"$tmp/k.json"
expect 200 "diff with an upload" "${url}api/diff?base=1&new=13"
"$GPUPROF" diff --format json "$tmp/a.json" "$tmp/k.json" >"$tmp/want"
python3 - "$tmp/want" "$tmp/body" <<'EOF' && ok || bad "upload: tables differ from the CLI's"
import json, sys
want, got = (json.load(open(p)) for p in sys.argv[1:3])
for d in (want, got):
    del d["diff"]["new"]
sys.exit(0 if want == got else 1)
EOF
finish
