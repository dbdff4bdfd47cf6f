#!/bin/sh
# Browser tests of the viewer (tests/web/*.test.mjs, sharing harness.mjs): node's test
# runner drives Debian's chromium through playwright-core (installed by
# `npm ci` here; tools/setup.sh and .ci/run do it). Skips, with a message,
# only when node or chromium is absent. Closing line "web: N passed, N failed".
# With GPUPROF_BACKEND=site (the website stage) the same tests run on the
# static site (build/site/, made by the wasm stage's make site; skipped
# when it is not built) instead of gpuprof serve: harness.mjs says how, and
# the tests that cannot run there are skipped with the reason. Its closing
# line says "website:".
set -u
cd "$(dirname "$0")"
: "${GPUPROF:?}"
name=web
if [ "${GPUPROF_BACKEND:-serve}" = site ]; then
	name=website
	if [ ! -f ../../build/site/index.html ]; then
		echo "website: skipped: build/site/ is not built (make site; it needs emscripten)"
		echo "website: 0 passed, 0 failed"
		exit 0
	fi
fi
case $GPUPROF in
/*) ;;
*) GPUPROF=$(cd ../.. && pwd)/$GPUPROF ;;
esac
export GPUPROF
chromium=${CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null 2>&1; then
	echo "$name: skipped: node not found (tools/setup.sh installs nodejs)"
	echo "$name: 0 passed, 0 failed"
	exit 0
fi
if [ ! -x "$chromium" ]; then
	echo "$name: skipped: $chromium not found (tools/setup.sh installs chromium)"
	echo "$name: 0 passed, 0 failed"
	exit 0
fi
if [ ! -d node_modules/playwright-core ]; then
	# present tools but no dependencies is a set-up failure, not a skip
	if ! npm ci --no-audit --no-fund >npm.log 2>&1; then
		cat npm.log
		rm -f npm.log
		echo "$name: npm ci failed in tests/web"
		echo "$name: 0 passed, 1 failed"
		exit 1
	fi
	rm -f npm.log
fi
out=$(node --test --test-reporter=tap ./*.test.mjs 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^# |^not ok|^ok' | grep -v '^# Subtest'
printf '%s\n' "$out" | grep -q '^not ok' && printf '%s\n' "$out" | sed -n '/^not ok/,/^  \.\.\./p'
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass \([0-9]*\)$/\1/p')
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail \([0-9]*\)$/\1/p')
if [ -z "$pass" ] || [ -z "$fail" ]; then
	printf '%s\n' "$out" | tail -30
	echo "$name: 0 passed, 1 failed"
	exit 1
fi
[ "$rc" -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$name: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
