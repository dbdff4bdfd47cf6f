#!/bin/sh
# CLI behaviour tests: exit codes, --help, atomic -o, stdin. Each check is one
# test; the closing line is "cli: N passed, N failed".
set -u
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL cli: $*"; fail=$((fail + 1)); }
expect_rc() { # want_rc description command...
	want=$1; what=$2; shift 2
	"$@" >/dev/null 2>&1
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$what: exit $rc, want $want"; fi
}
expect_rc 0 "--help" "$GPUPROF" --help
expect_rc 0 "--version" "$GPUPROF" --version
expect_rc 2 "no command" "$GPUPROF"
expect_rc 2 "unknown command" "$GPUPROF" frobnicate
expect_rc 2 "bad --format" "$GPUPROF" --format xml info x.json
for c in $("$GPUPROF" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF>1 {print $1}'); do
	expect_rc 0 "$c --help" "$GPUPROF" "$c" --help
done
"$GPUPROF" --version | grep -q '^gpuprof [0-9]' && ok || bad "--version first line"
# -o FILE: written atomically (temp file in the same folder + rename).
fix=tests/golden/_inputs/full.json
syntax=tests/golden/err-syntax/syntax.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-cli.XXXXXX")
no_temp_left() { # description: no FILE.tmp.* beside the target
	if ls "$tmp" | grep -q '\.tmp\.'; then bad "$1: temp file left: $(ls "$tmp" | tr '\n' ' ')"; else ok; fi
}
# success: the file holds exactly what stdout would, stdout stays empty
"$GPUPROF" info --format csv "$fix" >"$tmp/want.csv" 2>/dev/null
"$GPUPROF" info --format csv -o "$tmp/out.csv" "$fix" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "-o success: exit $rc, want 0"
cmp -s "$tmp/want.csv" "$tmp/out.csv" && ok || bad "-o success: file differs from stdout output"
grep -q '^events,20$' "$tmp/out.csv" && ok || bad "-o success: file lacks events,20"
[ ! -s "$tmp/stdout" ] && ok || bad "-o success: stdout not empty"
[ ! -s "$tmp/stderr" ] && ok || bad "-o success: stderr not empty"
no_temp_left "-o success"
# success replaces an existing file; --output=FILE spelling
printf 'OLD CONTENT\n' >"$tmp/out.csv"
"$GPUPROF" info --format csv --output="$tmp/out.csv" "$fix" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$tmp/want.csv" "$tmp/out.csv" && ok || bad "--output= replace: exit $rc or content differs"
no_temp_left "--output= replace"
# -o - is standard output
"$GPUPROF" info --format csv -o - "$fix" >"$tmp/dash.csv" 2>/dev/null
cmp -s "$tmp/want.csv" "$tmp/dash.csv" && ok || bad "-o -: stdout differs"
[ ! -e "$tmp/-" ] && [ ! -e ./- ] && ok || bad "-o -: a file named '-' was created"
# input errors: the existing target is left untouched, no temp file remains
for what in "missing input:$tmp/no-such.json" "syntax error:$syntax" "empty input:/dev/null"; do
	label=${what%%:*}
	in=${what#*:}
	printf 'OLD CONTENT\n' >"$tmp/keep.txt"
	"$GPUPROF" info -o "$tmp/keep.txt" "$in" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	[ "$rc" -eq 2 ] && ok || bad "-o with $label: exit $rc, want 2"
	[ "$(cat "$tmp/keep.txt")" = "OLD CONTENT" ] && ok || bad "-o with $label: target changed"
	[ "$(wc -l <"$tmp/stderr")" -eq 1 ] && ok || bad "-o with $label: stderr is not one line"
	no_temp_left "-o with $label"
done
# a second input failing after the first loaded: still untouched
printf 'OLD CONTENT\n' >"$tmp/keep.txt"
"$GPUPROF" info -o "$tmp/keep.txt" "$fix" "$syntax" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ "$(cat "$tmp/keep.txt")" = "OLD CONTENT" ] && ok || bad "-o with a bad second input: exit $rc or target changed"
no_temp_left "-o with a bad second input"
# --strict failure: untouched
printf 'OLD CONTENT\n' >"$tmp/keep.txt"
"$GPUPROF" info --strict -o "$tmp/keep.txt" tests/golden/err-strict/two_anomalies.json >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ "$(cat "$tmp/keep.txt")" = "OLD CONTENT" ] && ok || bad "-o with --strict failure: exit $rc or target changed"
no_temp_left "-o with --strict failure"
# -o into a folder that does not exist: exit 2, one error line, nothing created
"$GPUPROF" info -o "$tmp/missing-dir/out.txt" "$fix" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ "$rc" -eq 2 ] && ok || bad "-o into a missing folder: exit $rc, want 2"
[ ! -e "$tmp/missing-dir" ] && ok || bad "-o into a missing folder: the folder was created"
grep -q 'missing-dir/out.txt' "$tmp/stderr" && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] && ok || bad "-o into a missing folder: stderr is not one line naming the target"
[ ! -s "$tmp/stdout" ] && ok || bad "-o into a missing folder: output went to stdout"
# -o without a value
expect_rc 2 "-o without a value" "$GPUPROF" info "$fix" -o
# a file of another kind given to a trace command: one line saying what it
# is and which command reads it, exit 2, nothing written (input/input.c)
printf 'SQLite format 3\000\020\000\001\001' >"$tmp/k.sqlite"
gzip -c "$tmp/k.sqlite" >"$tmp/k.sqlite.gz"
printf 'NVIDIA Tegra Profiler Report 2024.1.\n' >"$tmp/k.nsys-rep"
printf '{\n  "gpu_projected_ranges": [],\n  "schema_version": 1\n}\n' >"$tmp/k.json"
mkdir "$tmp/run"
wrong_kind() { # file message: every trace command says "gpuprof: error: FILE: MESSAGE"
	for c in info summary steps ops kernels memory top dist "export folded"; do
		rm -f "$tmp/wk.out"
		"$GPUPROF" $c -o "$tmp/wk.out" "$1" >"$tmp/stdout" 2>"$tmp/stderr"
		rc=$?
		if [ "$rc" -eq 2 ] && [ ! -e "$tmp/wk.out" ] && [ ! -s "$tmp/stdout" ] &&
			[ "$(wc -l <"$tmp/stderr")" -eq 1 ] && [ "$(cat "$tmp/stderr")" = "gpuprof: error: $1: $2" ]; then
			ok
		else
			bad "$c on $1: exit $rc, -o target $([ -e "$tmp/wk.out" ] && echo written || echo absent): $(cat "$tmp/stderr")"
		fi
	done
	no_temp_left "wrong kind $1"
}
wrong_kind tests/golden/err-ncu-file/report.ncu-rep \
	'byte 0: this is an Nsight Compute (.ncu-rep) file, not a PyTorch trace'
wrong_kind "$tmp/k.sqlite" \
	'byte 0: this is an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` reads Nsight Systems exports'
wrong_kind "$tmp/k.sqlite.gz" \
	'byte 0 (uncompressed): this is an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` reads Nsight Systems exports'
wrong_kind "$tmp/k.nsys-rep" \
	'byte 0: this is an Nsight Systems (.nsys-rep) file, not a PyTorch trace; export it with `nsys export --type sqlite` for `gpuprof nsys`'
wrong_kind "$tmp/k.json" \
	'byte 0: this is an analysis.json of `nsys analyze`, not a PyTorch trace; `gpuprof serve FILE` shows it'
wrong_kind "$tmp/run" \
	'this is a directory, not a PyTorch trace; `gpuprof serve DIR` shows a profiling run directory'
# ---- the one argument parser (src/cli/args.c, src/core/opt.c) ----
ops=tests/golden/_inputs/ops.json
# expect_msg DESCRIPTION WANT_STDERR command...: exit 2, nothing on stdout,
# exactly WANT_STDERR on stderr
expect_msg() {
	what=$1; want=$2; shift 2
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	rc=$?
	printf '%s\n' "$want" >"$tmp/want_err"
	[ "$rc" -eq 2 ] && ok || bad "$what: exit $rc, want 2"
	cmp -s "$tmp/want_err" "$tmp/stderr" && ok || bad "$what: stderr '$(cat "$tmp/stderr")', want '$want'"
	[ ! -s "$tmp/stdout" ] && ok || bad "$what: stdout not empty"
}
# the Nsight Compute and Nsight Systems commands name the kind they were
# given, through the same registry of input kinds
expect_msg "ncu list on a trace" \
	"gpuprof: error: $ops: byte 0: this is a PyTorch trace, not an Nsight Compute (.ncu-rep) file; \`gpuprof summary FILE\` and the other trace commands read it" \
	"$GPUPROF" ncu list "$ops"
expect_msg "nsys on a trace" \
	"gpuprof: error: $ops: byte 0: this is a PyTorch trace, not an SQLite file; \`gpuprof summary FILE\` and the other trace commands read it" \
	"$GPUPROF" nsys "$ops" kernels
expect_msg "nsys on an Nsight Compute report" \
	"gpuprof: error: tests/golden/err-ncu-file/report.ncu-rep: byte 0: this is an Nsight Compute (.ncu-rep) file, not an SQLite file" \
	"$GPUPROF" nsys tests/golden/err-ncu-file/report.ncu-rep
# the HTTP library is opened by `serve` alone: no other command links it
# (src/server/srv_mhd.h), and one that cannot be loaded is one line, exit 2
if readelf -d "$GPUPROF" 2>/dev/null | grep -q 'NEEDED.*libz'; then
	readelf -d "$GPUPROF" | grep -q 'NEEDED.*microhttpd' && bad "the binary links libmicrohttpd" || ok
fi
mkdir "$tmp/nolib" && : >"$tmp/nolib/libmicrohttpd.so.12"
expect_msg "serve without a loadable libmicrohttpd" \
	"gpuprof: error: cannot load the HTTP library ($tmp/nolib/libmicrohttpd.so.12: file too short); Debian's package libmicrohttpd12 provides it" \
	env LD_LIBRARY_PATH="$tmp/nolib" "$GPUPROF" serve --port 0 examples/tiny.json
# same_out DESCRIPTION CMD_A -- CMD_B: both exit 0 with the same stdout
same_out() {
	what=$1; shift
	a=; while [ "$1" != "--" ]; do a="$a '$1'"; shift; done; shift
	eval "$a" >"$tmp/a.out" 2>/dev/null; ra=$?
	"$@" >"$tmp/b.out" 2>/dev/null; rb=$?
	[ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && [ -s "$tmp/a.out" ] && cmp -s "$tmp/a.out" "$tmp/b.out" && ok || bad "$what: exit $ra/$rb or outputs differ"
}
# --opt=value and --opt value; the operators table has 5 rows
same_out "ops --top=5 --format=csv" "$GPUPROF" ops -q "$ops" --top=5 --format=csv -- "$GPUPROF" ops -q "$ops" --top 5 --format csv
rows=$(awk '/^# operators$/ {t=1; next} /^# / {t=0} t && NF' "$tmp/a.out" | tail -n +2 | wc -l)
[ "$rows" -eq 5 ] && ok || bad "ops --top=5: $rows rows, want 5"
# options before, between and after the operand; -- ends the options
same_out "options around the TRACE" "$GPUPROF" ops -q --sort=calls "$ops" --top=3 -- "$GPUPROF" ops -q --top 3 --sort calls -- "$ops"
expect_msg "-- makes an option an operand" "gpuprof: error: --top: cannot open: No such file or directory" "$GPUPROF" ops -q -- --top
# - is standard input
"$GPUPROF" ops -q --format csv - <"$ops" >"$tmp/stdin.csv" 2>/dev/null
"$GPUPROF" ops -q --format csv "$ops" >"$tmp/file.csv" 2>/dev/null
[ -s "$tmp/stdin.csv" ] && cmp -s "$tmp/stdin.csv" "$tmp/file.csv" && ok || bad "ops -: standard input differs from the file"
# short options: -n5, -n 5, --top=5, bundled with the global -q
same_out "top -n5" "$GPUPROF" top -q "$ops" -n5 -- "$GPUPROF" top -q "$ops" -n 5
same_out "top --top=5" "$GPUPROF" top -q "$ops" --top=5 -- "$GPUPROF" top -q "$ops" -n 5
same_out "top -qn5" "$GPUPROF" top -qn5 "$ops" -- "$GPUPROF" top -q -n 5 "$ops"
"$GPUPROF" top -q --format csv -n5 "$ops" >"$tmp/top.csv" 2>/dev/null
rows=$(awk '/^# top_total$/ {t=1; next} /^# / {t=0} t && NF' "$tmp/top.csv" | tail -n +2 | wc -l)
[ "$rows" -eq 5 ] && ok || bad "top -n5: $rows rows in top_total, want 5"
# global options: -oFILE, --output=FILE, --format=csv, -qoFILE
"$GPUPROF" summary -q "$ops" >"$tmp/summary.want" 2>/dev/null
rm -f "$tmp/out.json"
"$GPUPROF" summary "$ops" "-o$tmp/out.json" >"$tmp/stdout" 2>/dev/null
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$tmp/summary.want" "$tmp/out.json" && [ ! -s "$tmp/stdout" ] && ok || bad "summary -oFILE: exit $rc or the file differs"
rm -f "$tmp/out.json"
"$GPUPROF" summary "$ops" "-qo$tmp/out.json" >/dev/null 2>&1 && cmp -s "$tmp/summary.want" "$tmp/out.json" && ok || bad "summary -qoFILE"
same_out "--format=json" "$GPUPROF" --format=json summary -q "$ops" -- "$GPUPROF" summary -q "$ops" --format json
# did you mean: commands, options, enum values (the exact lines)
expect_msg "mistyped command" "gpuprof: unknown command 'sumary'; did you mean 'summary'? (commands: info, steps, summary, ops, kernels, memory, modules, lightning, dist, rank-summary, top, idle, launches, sync, flops, critical-path, counters, sequences, diff, export, trace, ncu, nsys, serve, synth, completion)
Try 'gpuprof --help'." "$GPUPROF" sumary
expect_msg "unknown command" "gpuprof: unknown command 'frobnicate' (commands: info, steps, summary, ops, kernels, memory, modules, lightning, dist, rank-summary, top, idle, launches, sync, flops, critical-path, counters, sequences, diff, export, trace, ncu, nsys, serve, synth, completion)
Try 'gpuprof --help'." "$GPUPROF" frobnicate
expect_msg "ops --sort bogus" "gpuprof: ops: --sort must be device_self, device_total, host_self, host_total, calls, tc_self, tc_total or name, not 'bogus'
Try 'gpuprof ops --help'." "$GPUPROF" ops --sort bogus "$ops"
expect_msg "ops --sort calss" "gpuprof: ops: --sort must be device_self, device_total, host_self, host_total, calls, tc_self, tc_total or name, not 'calss'; did you mean 'calls'?
Try 'gpuprof ops --help'." "$GPUPROF" ops --sort calss "$ops"
expect_msg "--group-by kernal" "gpuprof: kernels: --group-by must be kernel or kernel+op, not 'kernal'; did you mean 'kernel'?
Try 'gpuprof kernels --help'." "$GPUPROF" kernels --group-by kernal "$ops"
expect_msg "--tpo 5" "gpuprof: ops: unknown option '--tpo'; did you mean '--top'?
Try 'gpuprof ops --help'." "$GPUPROF" ops --tpo 5 "$ops"
expect_msg "an abbreviation is refused" "gpuprof: ops: unknown option '--to'; did you mean '--top'?
Try 'gpuprof ops --help'." "$GPUPROF" ops --to 5 "$ops"
expect_msg "a global option mistyped" "gpuprof: ops: unknown option '--fromat'; did you mean '--format'?
Try 'gpuprof ops --help'." "$GPUPROF" ops --fromat csv "$ops"
expect_msg "missing value" "gpuprof: ops: option --top needs a value
Try 'gpuprof ops --help'." "$GPUPROF" ops "$ops" --top
expect_msg "a flag given a value" "gpuprof: ops: option --stack takes no value
Try 'gpuprof ops --help'." "$GPUPROF" ops --stack=1 "$ops"
expect_msg "unknown short option" "gpuprof: top: unknown option '-x'
Try 'gpuprof top --help'." "$GPUPROF" top -x "$ops"
expect_msg "a bad count" "gpuprof: top: --top needs a count, not 'five'
Try 'gpuprof top --help'." "$GPUPROF" top -nfive "$ops"
expect_msg "export pprf" "gpuprof: export: unknown format 'pprf'; did you mean 'pprof'? (pprof, folded or speedscope)
Try 'gpuprof export --help'." "$GPUPROF" export pprf "$ops"
expect_msg "ncu lst" "gpuprof: ncu: unknown verb 'lst'; did you mean 'list'? (list, raw, session, details, hints, body, source, diff)
Try 'gpuprof ncu --help'." "$GPUPROF" ncu lst tests/golden/_inputs/tiny.ncu-rep
# stacked repetitions: regcomp would expand 2^120 copies (gigabytes), or
# take seconds per '?' ("a???...?+++++", found by fuzz_http_query); refused
# before it (a nesting that stays small is compiled as before)
rx="(a(a$(printf '+%.0s' $(seq 1 120))*)*b"
# ncu source: a --nvdisasm that is not there is a usage error (no fallback)
expect_msg "ncu source --nvdisasm missing" "gpuprof: ncu: --nvdisasm '$tmp/no/nvdisasm' is not an executable file
Try 'gpuprof ncu --help'." "$GPUPROF" ncu source --nvdisasm "$tmp/no/nvdisasm" tests/golden/_inputs/tiny.ncu-rep
# without nvdisasm anywhere: the rows by address, a note, exit 0
mkdir -p "$tmp/nonvd"
out=$(env -u GPUPROF_NVDISASM PATH="$tmp/nonvd" "$GPUPROF" --format csv --table kernels ncu source tests/golden/_inputs/tiny.ncu-rep 2>&1)
rc=$?
case "$rc $out" in "0 "*"the report's cubin is a stub of 4 bytes"*) ok ;; *) bad "ncu source without nvdisasm: exit $rc [$out]" ;; esac
expect_msg "ncu --kernel stacked repetitions" "gpuprof: ncu: --kernel: regular expression too complex (a repetition directly after another) '$rx'
Try 'gpuprof ncu --help'." "$GPUPROF" ncu list --kernel "$rx" tests/golden/_inputs/tiny.ncu-rep
expect_msg "ncu --metric too complex" "gpuprof: ncu: --metric: regular expression too complex (its repetitions expand past 4096 parts) '((a{100}){100}){100}'
Try 'gpuprof ncu --help'." "$GPUPROF" ncu body --metric '((a{100}){100}){100}' tests/golden/_inputs/tiny.ncu-rep
rx='((((((((((((((((a)?)?)?)?)?)?)?)?)?)?)?)?)?)?)?)+'
expect_msg "ncu --kernel nested too deep" "gpuprof: ncu: --kernel: regular expression too complex (repetitions nested more than 4 deep) '$rx'
Try 'gpuprof ncu --help'." "$GPUPROF" ncu list --kernel "$rx" tests/golden/_inputs/tiny.ncu-rep
expect_msg "ncu --kernel back-reference" "gpuprof: ncu: --kernel: regular expression too complex (back-references such as \\1 take exponential time) '(a*)*\\1'
Try 'gpuprof ncu --help'." "$GPUPROF" ncu list --kernel '(a*)*\1' tests/golden/_inputs/tiny.ncu-rep
same_out "ncu --kernel (a{60}){60}" "$GPUPROF" ncu list --kernel '(a{60}){60}' tests/golden/_inputs/tiny.ncu-rep -- "$GPUPROF" ncu list --kernel 'x{5}y' tests/golden/_inputs/tiny.ncu-rep
expect_msg "export --unit=sec" "gpuprof: export: --unit must be ns or us, not 'sec'
Try 'gpuprof export --help'." "$GPUPROF" export folded --unit=sec "$ops"
same_out "export folded --unit=us" "$GPUPROF" export -q folded "$ops" --unit=us -- "$GPUPROF" export -q folded --unit us "$ops"
# the man page's option lists are what the declarations generate (every
# command with declared options: the views, dist, rank-summary, export,
# trace, ncu, nsys, serve, synth)
"$GPUPROF" --man-options >"$tmp/man-options"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	grep -qxF -- "$line" man/gpuprof.1 && ok || bad "man/gpuprof.1 lacks the generated line: $line"
done <"$tmp/man-options"
names=$(sed 's/^\.SS \([a-z-]*\) .*/\1/' "$tmp/man-options" | tr '\n' '|')
# (nsys analyze and nsys profile are subcommands, not in --man-options)
have=$(grep -E "^\.SS (${names%|}) " man/gpuprof.1 | grep -Ecv '^\.SS nsys (analyze|profile) ')
[ "$n" -eq 25 ] && [ "$have" -eq "$n" ] && ok || bad "man/gpuprof.1: $have option lines, want the $n generated (17 views, 8 commands)"
# every global option of `gpuprof --help` is in the man page
for o in $("$GPUPROF" --help | sed -n '/^Global options/,/^$/p' | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" man/gpuprof.1 && ok || bad "man/gpuprof.1 lacks the global option $o"
done
"$GPUPROF" --help | grep -q -- '--max-memory SIZE' && ok || bad "--help lacks --max-memory SIZE"
# --max-memory: a size, checked before anything is read
expect_msg "--max-memory lots" "gpuprof: --max-memory needs a size such as 512M or 4G, not 'lots'" "$GPUPROF" --max-memory lots info "$fix"
expect_msg "--max-memory=0" "gpuprof: --max-memory needs a size such as 512M or 4G, not '0'" "$GPUPROF" info --max-memory=0 "$fix"
# 1 KiB is less than an empty trace's string pool: the load stops at byte 0
expect_msg "--max-memory 1K" "gpuprof: error: $fix: byte 0: the trace needs more than 1.0 KiB of memory (--max-memory); load it with a larger --max-memory, or on a machine with more memory" "$GPUPROF" --max-memory 1K info "$fix"
same_out "--max-memory 64M" "$GPUPROF" info -q --format csv "$fix" -- "$GPUPROF" info -q --format csv --max-memory 64M "$fix"
# a --step window rounds HTA's times as the file of the step does (the
# window counts its own timestamps that are not whole microseconds)
"$GPUPROF" trace slice examples/resnet_like.json.gz --step 3 -o "$tmp/step3.json" 2>/dev/null
same_out "launches --step 3 = launches of trace slice --step 3" "$GPUPROF" launches --top 0 --format csv --step 3 examples/resnet_like.json.gz -- "$GPUPROF" launches --top 0 --format csv "$tmp/step3.json"
same_out "idle --step 3 = idle of trace slice --step 3" "$GPUPROF" idle --show-intervals --format csv --step 3 examples/resnet_like.json.gz -- "$GPUPROF" idle --show-intervals --format csv "$tmp/step3.json"
# summary --quick: the full summary's tables less what needs the operator
# tree or the GPU waits analyses (Tensor Core values null, no
# recommendations); the full one of the bundled example has both
for f in examples/resnet_like.json.gz "$fix"; do
	"$GPUPROF" summary -q --format json "$f" >"$tmp/full.json" 2>/dev/null
	"$GPUPROF" summary -q --quick --format json "$f" >"$tmp/quick.json" 2>/dev/null
	python3 - "$tmp/full.json" "$tmp/quick.json" <<'PY' && ok || bad "summary --quick of $f"
import json, sys
full, quick = (json.load(open(p)) for p in sys.argv[1:3])
assert quick['recommendations'] == [], quick['recommendations']
assert quick['overview']['tc_eligible_pct'] is None
assert all(g['tensor_cores_pct'] is None for g in quick['gpus'])
for k in ('overview', 'gpus'):
    rows = full[k] if isinstance(full[k], list) else [full[k]]
    for r in rows:
        r['tc_eligible_pct' if k == 'overview' else 'tensor_cores_pct'] = None
full['recommendations'] = []
assert full == quick, 'the other values differ'
PY
done
"$GPUPROF" summary -q --format json examples/resnet_like.json.gz | grep -q '"tc_eligible_pct": 56.7' && ok ||
	bad "summary of resnet_like: tc_eligible_pct is not 56.7x"
rm -rf "$tmp"
echo "cli: $pass passed, $fail failed"
