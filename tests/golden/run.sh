#!/bin/sh
# Golden tests: each folder tests/golden/CASE/ holds `cmd` (one shell line run
# from that folder, with $GPUPROF as the binary) and `expected` (its exact
# stdout, plus a last line "exit N"). Inputs live beside them. Set
# GOLDEN_UPDATE=1 to rewrite the expectations (then review the diff).
# GOLDEN_CASES="A B ..." runs those cases only (a named case that is not
# there fails), and GOLDEN_LABEL names the closing line (default golden):
# the tb stages run their causes' fixtures so (tests/tbprof/fixtures.sh).
set -u
pass=0
fail=0
root=$(pwd)
# cmd runs from its case folder: a relative binary path must become absolute
case $GPUPROF in
/*) ;;
*/*) GPUPROF=$root/$GPUPROF ;;
esac
export GPUPROF
for dir in tests/golden/*/; do
	[ -f "$dir/cmd" ] || continue
	name=$(basename "$dir")
	if [ -n "${GOLDEN_CASES:-}" ]; then
		case " $GOLDEN_CASES " in
		*" $name "*) ;;
		*) continue ;;
		esac
	fi
	got=$(cd "$dir" && sh ./cmd 2>&1; echo "exit $?")
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		printf '%s\n' "$got" >"$dir/expected"
	fi
	if printf '%s\n' "$got" | diff -u "$dir/expected" - >"$root/$BUILD/golden-$name.diff"; then
		pass=$((pass + 1))
	else
		echo "FAIL golden $name:"
		cat "$root/$BUILD/golden-$name.diff"
		fail=$((fail + 1))
	fi
done
for name in ${GOLDEN_CASES:-}; do
	[ -f "tests/golden/$name/cmd" ] || {
		echo "FAIL golden $name: no such case"
		fail=$((fail + 1))
	}
done
echo "${GOLDEN_LABEL:-golden}: $pass passed, $fail failed"
