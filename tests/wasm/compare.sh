#!/bin/sh
# compare.sh NAME DIR ARGS...: runs `gpuprof ARGS...` from DIR with the
# native binary ($GPUPROF) and with the WebAssembly build
# (tests/wasm/gpuprof-node) and prints "ok NAME" when stdout, stderr and
# the exit status are byte-identical, else "FAIL NAME" and the difference.
set -u
name=$1
dir=$2
shift 2
t=$(mktemp -d)
(cd "$dir" && "$GPUPROF" "$@" >"$t/n.out" 2>"$t/n.err"; echo "exit $?" >>"$t/n.err")
(cd "$dir" && "$WASM_CMD" "$@" >"$t/w.out" 2>"$t/w.err"; echo "exit $?" >>"$t/w.err")
if cmp -s "$t/n.out" "$t/w.out" && cmp -s "$t/n.err" "$t/w.err"; then
	echo "ok $name"
else
	echo "FAIL $name: gpuprof $*"
	diff "$t/n.out" "$t/w.out" | head -n 10
	diff "$t/n.err" "$t/w.err" | head -n 10
fi
rm -rf "$t"
