#!/bin/sh
# golden.sh CASE_DIR: one golden case (tests/golden/run.sh's contract) run
# with the WebAssembly build as $GPUPROF: "ok NAME" or "FAIL NAME".
set -u
dir=$1
name=$(basename "$dir")
got=$(cd "$dir" && GPUPROF=$WASM_CMD sh ./cmd 2>&1; echo "exit $?")
if printf '%s\n' "$got" | diff -u "$dir/expected" - >"$WASM_LOGS/golden-$name.diff"; then
	echo "ok golden/$name"
else
	echo "FAIL golden/$name"
	head -n 20 "$WASM_LOGS/golden-$name.diff"
fi
