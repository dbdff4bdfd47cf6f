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
rm -rf "$tmp"
echo "cli: $pass passed, $fail failed"
