#!/bin/sh
# fixtures.sh STAGE CASE... -- CMD...: a tb stage. First the golden cases
# CASE... (tests/golden/CASE: the stage's small fixtures of the causes in
# docs/tb-compat.md, each with the plugin's value worked out by hand from
# its algorithm in the case's cmd, and run without ../shared), then CMD
# (the comparison with the plugin's dumps in ../shared, which skips
# cleanly when they are absent). Prints the closing line "STAGE: N passed,
# N failed" over both; exits non-zero when either failed.
set -u
stage=$1
shift
cases=
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
	cases="$cases $1"
	shift
done
[ "$#" -gt 0 ] && shift
fx=$(GOLDEN_CASES="$cases" GOLDEN_LABEL="$stage fixtures" sh tests/golden/run.sh)
out=$("$@")
rc=$?
printf '%s\n%s\n' "$fx" "$out" | grep -v -E "^$stage: [0-9]+ passed, [0-9]+ failed$"
count() { # count PASSED|FAILED TEXT LABEL
	printf '%s\n' "$2" | sed -n -E "s/^$3: ([0-9]+) passed, ([0-9]+) failed$/\\$1/p" | tail -n 1
}
p1=$(count 1 "$fx" "$stage fixtures") f1=$(count 2 "$fx" "$stage fixtures")
p2=$(count 1 "$out" "$stage") f2=$(count 2 "$out" "$stage")
[ -n "$p2" ] || { p2=0 f2=1; echo "FAIL $stage: the comparison ended without a summary (exit $rc)"; }
echo "$stage: $((${p1:-0} + p2)) passed, $((${f1:-1} + f2)) failed"
[ "$rc" -eq 0 ] && [ "$((${f1:-1} + f2))" -eq 0 ]
