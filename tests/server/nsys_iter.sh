#!/bin/sh
# API tests of the Nsight Systems iteration analysis in `gpuprof serve`
# (called by tests/server/check.sh; run from the repository root with
# GPUPROF set). Checks, each against a reference:
#   - GET /api/file/ID/nsys/steps on the tiny export of
#     tests/nsys/check_sqlite.py (and on a ../shared export when present) is
#     byte for byte `gpuprof nsys FILE steps` with the same options;
#   - an analysis.json written here by `gpuprof nsys analyze --from-csv` on
#     the fixture run directory tests/nsys/run_small, and one of
#     ../shared/data/nsys/derived/expected (when present), served on the
#     command line and uploaded: /nsys/analysis is the file's bytes;
#   - the run directory itself on the command line: the same bytes as
#     `nsys analyze --from-csv` writes, and nothing written into it;
#   - errors: a cut analysis.json, schema_version 2, a missing key, a
#     directory without a run, wrong parameters and kinds.
# Closing line "nsys_iter: N passed, N failed".
part=nsys_iter
. tests/server/lib.sh
shared=${GPUPROF_SHARED:-../shared}
stop() { kill "$pid"; wait "$pid" && ok || bad "server stop"; pid=; }
# same_file ID FILE: /api/file/ID/nsys/analysis is FILE's bytes
same_file() {
	got=$(status "${url}api/file/$1/nsys/analysis")
	[ "$got" = 200 ] && cmp -s "$2" "$tmp/body" && ok || bad "nsys/analysis of file $1: HTTP $got, differs from $2"
}
# same_steps ID EXPORT QUERY CLI-ARGS...: /api/file/ID/nsys/steps?QUERY is
# `gpuprof nsys EXPORT steps CLI-ARGS...`, byte for byte
same_steps() {
	id=$1 db=$2 q=$3; shift 3
	got=$(status "${url}api/file/$id/nsys/steps$q")
	"$GPUPROF" nsys "$db" steps "$@" >"$tmp/want" 2>"$tmp/want.err"
	[ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body" && ok ||
		bad "nsys/steps$q of file $id: HTTP $got, differs from 'gpuprof nsys $db steps $*' ($(head -c 200 "$tmp/want.err"))"
}

db=$tmp/tiny.sqlite
python3 -c "import sys; sys.path.insert(0, 'tests/nsys'); import check_sqlite; check_sqlite.make_tiny(sys.argv[1], True)" "$db" 2>"$tmp/py.err" ||
	{ bad "could not make the tiny export: $(cat "$tmp/py.err")"; finish; }
# the fixture run directory, analysed by the CLI in a copy
cp -R tests/nsys/run_small "$tmp/run"
"$GPUPROF" nsys analyze --run-dir "$tmp/run" --from-csv -q >/dev/null 2>"$tmp/an.err" && [ -s "$tmp/run/analysis.json" ] && ok ||
	bad "nsys analyze --from-csv on the fixture: $(cat "$tmp/an.err")"
# its known values: 6 of 7 iterations, one without a GPU projection
grep -qF '"Missing expected iteration indexes: [6].",' "$tmp/run/analysis.json" &&
	grep -qF '"Missing GPU projections for iterations: [3]."' "$tmp/run/analysis.json" && ok ||
	bad "fixture analysis: warnings not as expected"
cp "$tmp/run/analysis.json" "$tmp/fixture.analysis.json"
before=$(find tests/nsys/run_small -type f | sort | xargs cksum)
expected=$shared/data/nsys/derived/expected/scoped_names.analysis.json
[ -f "$expected" ] || { echo "server nsys_iter: no $expected: the shared analysis.json is skipped"; expected=; }
export_shared=$shared/data/nsys/exports/nsys-ai__mfu_2gpu_after__2026.2.1.sqlite
[ -f "$export_shared" ] || { echo "server nsys_iter: no $export_shared: steps checked on the tiny export only"; export_shared=; }

# files: 1 tiny export, 2 the CLI's analysis.json, 3 the run directory
# (analysed in memory), 4 the shared export, 5 the shared analysis.json
# shellcheck disable=SC2086
start_server "$db" "$tmp/fixture.analysis.json" tests/nsys/run_small/ $export_shared $expected
status "${url}api/files" >/dev/null
nanalyses=2
[ -n "$expected" ] && nanalyses=3
[ "$(grep -c '"kind": "nsys-analysis"' "$tmp/body")" = "$nanalyses" ] && ok ||
	bad "files: want the analyses of kind nsys-analysis: $(cat "$tmp/body")"
grep -qF '"name": "run_small",' "$tmp/body" && ok || bad "files: the run directory's name: $(cat "$tmp/body")"
same_steps 1 "$db" ""
same_steps 1 "$db" "?iterations=2" --iterations 2
same_steps 1 "$db" "?iterations=3&capture_range=profile-target" --iterations 3 --capture-range profile-target
grep -qF '"Missing expected iteration indexes: [2]."' "$tmp/body" && ok || bad "steps: the iterations warning"
same_file 2 "$tmp/fixture.analysis.json"
# the run directory analysed in memory: what nsys analyze --from-csv wrote
same_file 3 "$tmp/fixture.analysis.json"
[ "$(find tests/nsys/run_small -type f | sort | xargs cksum)" = "$before" ] && [ ! -e tests/nsys/run_small/analysis.json ] && ok ||
	bad "the run directory was written to"
if [ -n "$export_shared" ]; then
	same_steps 4 "$export_shared" "?capture_range=aten%3A%3Ato%2C%20op_id%20%3D%20998949&iterations=3" \
		--capture-range "aten::to, op_id = 998949" --iterations 3
	expect 400 "steps: no capture range in the shared export" "${url}api/file/4/nsys/steps"
	message "Expected exactly one top-level host capture range named 'profile-target', but found 0."
fi
[ -n "$expected" ] && same_file 5 "$expected"
# errors: parameters and kinds
expect 400 "steps: a capture range absent" "${url}api/file/1/nsys/steps?capture_range=nope"
message "Expected exactly one top-level host capture range named 'nope', but found 0."
expect 400 "steps: a bad count" "${url}api/file/1/nsys/steps?iterations=-1"
message "iterations needs a count, not '-1'"
expect 400 "steps: an empty capture range" "${url}api/file/1/nsys/steps?capture_range="
expect 400 "steps: an unknown parameter" "${url}api/file/1/nsys/steps?manifest=/etc/passwd"
message "nsys steps takes no parameter 'manifest'"
expect 400 "analysis: a parameter" "${url}api/file/2/nsys/analysis?iterations=2"
expect 400 "steps of an analysis" "${url}api/file/2/nsys/steps"
message "file 2 is an analysis.json: ask /api/file/2/nsys/analysis"
expect 400 "analysis of an export" "${url}api/file/1/nsys/analysis"
message "file 1 is an SQLite export: ask /api/file/1/nsys/steps"
expect 400 "an export view of an analysis" "${url}api/file/2/nsys/kernels"
expect 400 "a trace view of an analysis" "${url}api/file/2/summary"
message "file 2 is not a trace: ask /api/file/2/nsys/analysis"
expect 404 "no such file" "${url}api/file/99/nsys/analysis"
# uploads: whatever the name, by the content
expect 200 "upload an analysis.json" "${url}api/upload?name=a.bin" --data-binary @"$tmp/fixture.analysis.json"
grep -qF '"kind": "nsys-analysis"' "$tmp/body" && ok || bad "upload: kind: $(cat "$tmp/body")"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
same_file "$id" "$tmp/fixture.analysis.json"
if [ -n "$expected" ]; then
	expect 200 "upload the shared analysis.json" "${url}api/upload?name=x.json" --data-binary @"$expected"
	id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
	same_file "$id" "$expected"
fi
gzip -c "$tmp/fixture.analysis.json" >"$tmp/a.json.gz"
expect 200 "upload a gzipped analysis.json" "${url}api/upload?name=a.json.gz" --data-binary @"$tmp/a.json.gz"
id=$(sed -n 's/.*"id": \([0-9]*\).*/\1/p' "$tmp/body")
same_file "$id" "$tmp/fixture.analysis.json"
# broken ones: cut, schema_version 2, a key missing, NaN
head -c 700 "$tmp/fixture.analysis.json" >"$tmp/cut.json"
sed 's/"schema_version": 1/"schema_version": 2/' "$tmp/fixture.analysis.json" >"$tmp/v2.json"
sed 's/"iteration_summary":/"iteration_totals":/' "$tmp/fixture.analysis.json" >"$tmp/nokey.json"
sed 's/"stddev_ns": 0.0/"stddev_ns": NaN/' "$tmp/fixture.analysis.json" >"$tmp/nan.json"
expect 400 "upload a cut analysis.json" "${url}api/upload?name=cut.json" --data-binary @"$tmp/cut.json"
message "cut.json: byte 700: not valid JSON: the text ends inside the value (cut short?)"
expect 400 "upload schema_version 2" "${url}api/upload?name=v2.json" --data-binary @"$tmp/v2.json"
message "v2.json: analysis.json schema_version 2 is not supported: gpuprof reads schema_version 1"
expect 400 "upload without iteration_summary" "${url}api/upload?name=nokey.json" --data-binary @"$tmp/nokey.json"
message "nokey.json: not an analysis.json of schema_version 1: no 'iteration_summary' key"
if grep -q NaN "$tmp/nan.json"; then
	expect 400 "upload with NaN" "${url}api/upload?name=nan.json" --data-binary @"$tmp/nan.json"
	message "not valid JSON: NaN, Infinity or a trailing comma"
else
	bad "the fixture has no stddev_ns 0.0 to turn into NaN"
fi
stop
# the same errors on the command line: exit 2, one line naming the file
for f in cut v2 nokey; do
	"$GPUPROF" serve --port 0 "$tmp/$f.json" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF "$tmp/$f.json: " "$tmp/err" && ok ||
		bad "serve $f.json: exit $rc, $(cat "$tmp/err")"
done
mkdir "$tmp/empty"
"$GPUPROF" serve --port 0 "$tmp/empty" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qF "not a profiling run directory" "$tmp/err" && ok || bad "serve an empty directory: $(cat "$tmp/err")"
# a run directory with analysis.json: that file, as it is
start_server "$tmp/run"
same_file 1 "$tmp/run/analysis.json"
stop
finish
