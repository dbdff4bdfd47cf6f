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
echo "cli: $pass passed, $fail failed"
