# manifest.yaml: aliases that expand without end, long mappings and anchor
# lists (linear time), nesting, size, and the line of every YAML error.
# Each run directory is copied into $H_OUT, so that "nothing written" is the
# run directory holding only what it held.
h_run_dir() { # h_run_dir NAME: $H_IN/NAME with the two CSVs of one iteration
	mkdir -p "$H_IN/$1/stats"
	printf '%s\n' 'Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId' \
		'0,100,100,60,40,:cap,1,1,0,1,1,,' '10,70,60,0,60,:iteration 0,1,1,1,0,2,1' \
		>"$H_IN/$1/stats/nsys_nvtx_pushpop_trace.csv"
	printf '%s\n' 'Name,Projected Start (ns),Projected Duration (ns),Orig Start (ns),Orig Duration (ns),Style,PID,TID,NumGPUOps,Lvl,NumChild,RangeId,ParentId' \
		>"$H_IN/$1/stats/nsys_nvtx_gpu_proj_trace.csv"
}
# the analysis of run directory NAME copied to $H_OUT/run (bounded by timeout)
h_analyze() { echo "cp -r \"\$H_IN/$1\" \"\$H_OUT/run\" && timeout 20 \"\$GPUPROF\" nsys analyze --run-dir \"\$H_OUT/run\" --from-csv"; }
h_untouched() { [ "$(ls -A "$H_OUT/run" | tr '\n' ' ')" = "manifest.yaml stats " ]; }
# h_refused NAME MESSAGE_ERE: run directory NAME refused in 5 s, untouched
h_refused() {
	h_keep run
	h_case "yaml-$1" 2 "$2" 5 "$(h_analyze "$1")"
	h_check "yaml-$1: run directory untouched" h_untouched
}

# a billion laughs: 10^9 copies of "lol" once written out into analysis.json
h_run_dir laughs
{
	echo 'capture_range: cap'
	echo 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'
	for i in 1 2 3 4 5 6 7 8; do
		p=$((i - 1))
		echo "a$i: &a$i [*a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p, *a$p]"
	done
	echo 'run_id: *a8'
} >"$H_IN/laughs/manifest.yaml"
h_refused laughs "manifest\.yaml: line 8, column 30: with its aliases expanded the document passes 16777216 units"

# an alias inside the node it names: a cycle, never written out
h_run_dir cycle
printf 'capture_range: cap\nrun_id: &x [1, *x]\n' >"$H_IN/cycle/manifest.yaml"
h_refused cycle "manifest\.yaml: line 2, column 16: alias 'x' refers to a node that holds it"

# 80,000 keys in workload: parsed and written (sorted) in linear time;
# the file is what Python's json.dumps(indent=2, sort_keys=True) writes
h_run_dir wide
{
	printf 'capture_range: cap\nworkload:\n  iterations: 1\n'
	awk 'BEGIN { for (i = 80000; i >= 1; i--) printf "  k%d: %d\n", i, i }'
} >"$H_IN/wide/manifest.yaml"
h_keep run
h_case yaml-80k-keys 0 "" 5 "$(h_analyze wide)"
h_check "yaml-80k-keys: says what it wrote" grep -q "^Wrote analysis: .*/run/analysis\.json$" "$H_ROOT/stdout"
h_check "yaml-80k-keys: workload has 80001 keys in sorted order" python3 -c '
import json, sys
raw = open(sys.argv[1]).read()
d = json.loads(raw)
w = d["run"]["workload"]
assert len(w) == 80001 and w["k1"] == 1 and w["k80000"] == 80000 and w["iterations"] == 1
assert raw == json.dumps(d, indent=2, sort_keys=True) + "\n"
' "$H_OUT/run/analysis.json"

# 80,000 anchors, each alias naming the first: a linear index of anchors
h_run_dir anchors
{
	printf 'capture_range: cap\nanchors:\n'
	awk 'BEGIN { for (i = 0; i < 80000; i++) printf "- &a%d %d\n", i, i }'
	printf 'uses:\n'
	awk 'BEGIN { for (i = 0; i < 80000; i++) print "- *a0" }'
	printf 'run_id: *a79999\n'
} >"$H_IN/anchors/manifest.yaml"
h_keep run
h_case yaml-80k-anchors 0 "" 5 "$(h_analyze anchors)"
h_check "yaml-80k-anchors: run_id is the last anchor's value" grep -q '"run_id": 79999' "$H_OUT/run/analysis.json"

# nesting past 64 levels, with where it happens
h_run_dir deep
awk 'BEGIN { s = "capture_range: cap\nrun_id: "; for (i = 0; i < 100; i++) s = s "["; print s "1" }' >"$H_IN/deep/manifest.yaml"
h_refused deep "manifest\.yaml: line 2, column 73: nested deeper than 64 levels"

# more than LIM_YAML_BYTES of text
h_run_dir big
{
	printf 'capture_range: cap\nrun_id: r\nnotes:\n'
	awk 'BEGIN { for (i = 0; i < 300000; i++) printf "- note number %d\n", i }'
} >"$H_IN/big/manifest.yaml"
h_refused big "Profiling manifest is beyond a limit: .*manifest\.yaml: larger than 4194304 bytes"

# a syntax error names its line and column
h_run_dir syntax
printf 'capture_range: cap\nrun_id: [1,\n' >"$H_IN/syntax/manifest.yaml"
h_refused syntax "Profiling manifest is invalid YAML: .*manifest\.yaml: line 3, column 1: did not find expected node content"
