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
#   - 404 for an unknown id (base or new); 400 for a missing or malformed
#     id, two files of different kinds, two reports (a kind without a diff
#     view), an unknown parameter (with did-you-mean), a gate that does not
#     read and a step a file lacks (the CLI's messages);
#   - an upload compared with a file of the command line: the CLI's tables.
# Closing line "diff: N passed, N failed".
part=diff
. tests/server/lib.sh
ncu=tests/golden/_inputs/tiny.ncu-rep
synth="$GPUPROF -q synth --model tiny --steps 6"
$synth -o "$tmp/a.json" && $synth --scale-kernel sgemm=2 -o "$tmp/k.json" &&
	$synth --slow-step 5=3ms -o "$tmp/s.json" || { bad "synth failed"; finish; }
# files 1 a, 2 k, 3 s, 4 and 5 the tiny report
start_server "$tmp/a.json" "$tmp/k.json" "$tmp/s.json" "$ncu" "$ncu"
path_of() { case $1 in 1) echo "$tmp/a.json" ;; 2) echo "$tmp/k.json" ;; 3) echo "$tmp/s.json" ;; esac; }
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

# the gates in the answer: the first trips (sgemm doubled), the second not
status "${url}api/diff?base=1&new=2&fail_if=kernel%5Bsgemm%5D.total_ns%3E%2B99%25&fail_if=kernel%5Bsgemm%5D.total_ns%3E%2B100%25" >/dev/null
verdicts=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["diff"]["gates_tripped"], *[g["verdict"] for g in d["gates"]])' "$tmp/body")
[ "$verdicts" = "1 tripped passed" ] && ok || bad "gates: '$verdicts', want '1 tripped passed'"

# errors
expect 404 "unknown new" "${url}api/diff?base=1&new=9"
message "no file 9"
expect 404 "unknown base" "${url}api/diff?base=7&new=1"
message "no file 7"
for q in "" "base=1" "new=2" "base=0&new=1" "base=x&new=1" "base=1&new=2x" "base=-1&new=2" "base=1&new="; do
	expect 400 "ids '$q'" "${url}api/diff?$q"
	message "diff takes base=ID and new=ID, two loaded files of one kind"
done
expect 400 "kinds differ" "${url}api/diff?base=1&new=4"
message "diff compares two files of one kind: file 1 (a.json) is a PyTorch trace, file 4 (tiny.ncu-rep) is an Nsight Compute (.ncu-rep) file"
expect 400 "two reports" "${url}api/diff?base=4&new=5"
message "diff compares two PyTorch traces: file 4 (tiny.ncu-rep) is an Nsight Compute (.ncu-rep) file"
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

# an upload (file 6) against file 1: the CLI's tables (the upload's path
# in the diff section is its private link, as info's is)
expect 200 "upload" "${url}api/upload?name=k2.json" --data-binary @"$tmp/k.json"
expect 200 "diff with an upload" "${url}api/diff?base=1&new=6"
"$GPUPROF" diff --format json "$tmp/a.json" "$tmp/k.json" >"$tmp/want"
python3 - "$tmp/want" "$tmp/body" <<'EOF' && ok || bad "upload: tables differ from the CLI's"
import json, sys
want, got = (json.load(open(p)) for p in sys.argv[1:3])
for d in (want, got):
    del d["diff"]["new"]
sys.exit(0 if want == got else 1)
EOF
finish
