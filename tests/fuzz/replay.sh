#!/bin/sh
# Replays every fuzz corpus through its target's plain replay driver
# ($BUILD/fuzz-replay-NAME over tests/fuzz/corpus/NAME/*). Each input counts
# as one test: it passes when the driver returns without a crash or a
# sanitizer report.
set -u
pass=0
fail=0
for drv in "$BUILD"/fuzz-replay-*; do
	[ -x "$drv" ] || continue
	name=${drv##*/fuzz-replay-}
	for f in tests/fuzz/corpus/"$name"/*; do
		[ -f "$f" ] || continue
		if "$drv" "$f" >/dev/null 2>"$BUILD/fuzz-last.err"; then
			pass=$((pass + 1))
		else
			echo "FAIL fuzz $name: $f"
			cat "$BUILD/fuzz-last.err"
			fail=$((fail + 1))
		fi
	done
done
echo "fuzz: $pass passed, $fail failed"
