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
rm -rf "$tmp"
echo "cli: $pass passed, $fail failed"
