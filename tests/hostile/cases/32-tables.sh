# --table and -o DIR/ (src/cli/tables.c): one CSV per table, named only
# once all are written, none left when one fails.
T=tests/golden/_inputs/steps.json
# the last table cannot be named (a folder has its name): the two named
# before it are removed again
h_keep step_detection.csv
h_case tables-dir-last-fails 2 'step_detection\.csv' 5 \
	'mkdir "$H_OUT/step_detection.csv" && "$GPUPROF" -q steps --format csv -o "$H_OUT/" '"$T"
h_case tables-dir-missing 2 'no such folder' 5 \
	'"$GPUPROF" -q steps --format csv -o "$H_OUT/none/" '"$T"
h_case tables-dir-is-file 2 'not a folder' 5 \
	': >"$H_OUT/f" && "$GPUPROF" -q steps --format csv -o "$H_OUT/f/" '"$T"' || { rc=$?; rm -f "$H_OUT/f"; exit $rc; }'
h_case tables-dir-ok 0 '' 5 \
	'"$GPUPROF" -q steps --format csv -o "$H_OUT" '"$T"' && ls "$H_OUT" >"$H_ROOT/listed" && rm "$H_OUT"/*.csv'
h_check "tables-dir-ok: a CSV per table" [ "$(tr '\n' ' ' <"$H_ROOT/listed")" = "step_detection.csv steps.csv steps_average.csv " ]
# usage errors (two lines: the message and the hint): nothing written
tables_usage() {
	d=$H_ROOT/usage
	rm -rf "$d" && mkdir -p "$d"
	"$GPUPROF" -q "$@" >"$H_ROOT/stdout" 2>"$H_ROOT/stderr" </dev/null
	rc=$?
	[ "$rc" -eq 2 ] && [ -z "$(ls -A "$d")" ] && [ ! -s "$H_ROOT/stdout" ]
}
h_check "tables: unknown table, no file" tables_usage steps --table stepz --format csv -o "$H_ROOT/usage/" "$T"
h_check "tables: unknown table names the tables" grep -q "no table 'stepz'; did you mean 'steps'? (tables: steps, steps_average, step_detection)" "$H_ROOT/stderr"
h_check "tables: a folder needs csv" tables_usage steps --format json -o "$H_ROOT/usage/" "$T"
h_check "tables: --table of a command without tables" tables_usage export folded --table x -o "$H_ROOT/usage/x" "$T"
h_check "tables: nsys steps has no tables" tables_usage nsys tests/fuzz/corpus/nsys_sqlite/harness.sqlite steps --table x
