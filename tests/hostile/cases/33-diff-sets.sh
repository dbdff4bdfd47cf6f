# gpuprof diff of rank sets and the per-call tests (src/views/view_diff*.c):
# a kernel launched 200,000 times a side is tested in O(n log n), and the
# sets' usage errors name what was expected, writing nothing.
awk -v n=200000 -v m=1 -f tests/hostile/cases/diff-launches.awk >"$H_IN/launch-a.json"
awk -v n=200000 -v m=7 -f tests/hostile/cases/diff-launches.awk >"$H_IN/launch-b.json"
# the durations of b are a's, permuted (i * 7 mod 97): every delta within
# the noise; a quadratic test would take minutes
h_case diff-200k-launches 0 '' 20 \
	'"$GPUPROF" -q diff --format csv --table kernels "$H_IN/launch-a.json" "$H_IN/launch-b.json" >"$H_ROOT/launches.csv"'
h_check "diff-200k-launches: 200000 calls a side, noise" \
	grep -Eq '^k,increase,200000,200000,0,.*,normal,noise$' "$H_ROOT/launches.csv"
h_case diff-sets-200k-launches 0 '' 30 \
	'"$GPUPROF" -q diff --format csv --table kernels --base "$H_IN/launch-a.json" "$H_IN/launch-b.json" --new "$H_IN/launch-b.json" "$H_IN/launch-a.json" >"$H_ROOT/sets.csv"'
h_check "diff-sets-200k-launches: the sets are the same launches" \
	grep -Eq '^k,same,400000,400000,0,.*,normal,same$' "$H_ROOT/sets.csv"
# usage errors: exit 2, nothing on stdout, the message first
T=tests/golden/_inputs/steps.json
sets_usage() {
	"$GPUPROF" -q diff "$@" >"$H_ROOT/stdout" 2>"$H_ROOT/stderr" </dev/null
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -s "$H_ROOT/stdout" ]
}
many=$(i=0; while [ $i -lt 33 ]; do printf '%s ' "$T"; i=$((i + 1)); done)
# shellcheck disable=SC2086
h_check "diff-sets: 33 traces a side" sets_usage --base $many --new $T
h_check "diff-sets: 33 traces: the cap named" grep -q "^gpuprof: diff: --base takes at most 32 values$" "$H_ROOT/stderr"
h_check "diff-sets: unequal sets" sets_usage --base "$T" "$T" --new "$T"
h_check "diff-sets: unequal: the sizes named" grep -q "^gpuprof: diff: --base has 2 traces and --new 1" "$H_ROOT/stderr"
h_check "diff-sets: --base alone" sets_usage --base "$T"
h_check "diff-sets: operands and sets" sets_usage "$T" --base "$T" --new "$T"
h_check "diff-sets: a missing trace of a set" sets_usage --base "$T" --new "$H_IN/none.json"
h_check "diff-sets: the missing file named" grep -q "none.json" "$H_ROOT/stderr"
