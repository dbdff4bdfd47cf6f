#!/bin/sh
# API tests of the Nsight Compute chart fixture in `gpuprof serve` (called
# by tests/server/check.sh; run from the repository root with GPUPROF set):
#   - tests/golden/_inputs/full.ncu-rep and tiny.ncu-rep are what
#     tests/ncu/mkreport.py writes today (the committed bytes are fresh);
#   - GET /api/file/1/ncu/body (every kernel, one kernel, one section, with
#     metric=REGEX) and /ncu/raw (auto and base units) on full.ncu-rep are
#     byte for byte `gpuprof ncu body|raw ... --format json`;
#   - the body's rows carry what tests/ncu/mkfull.py wrote: the SOL bar
#     chart and breakdown sub-metrics, the roofline and memory-table items,
#     the stall bars (Stall GMMA absent: null), the opcode instances and the
#     three occupancy curves' instances, the theoretical occupancy 200/3 %;
#   - raw: 87 and 83 rows, the DRAM bandwidth in both units; bad units 400.
# Closing line "ncu_full: N passed, N failed".
part=ncu_full
. tests/server/lib.sh
full=tests/golden/_inputs/full.ncu-rep
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
# same QUERY ARGS...: /api/file/1/ncu/QUERY equals `gpuprof ncu ARGS --format json full.ncu-rep`
same() {
	q=$1; shift
	got=$(status "${url}api/file/1/ncu/$q")
	"$GPUPROF" ncu "$@" --format json "$full" >"$tmp/want" 2>/dev/null
	[ "$got" = 200 ] && [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/body" && ok || bad "ncu/$q: HTTP $got, differs from 'gpuprof ncu $*'"
}

# the committed fixtures are the generator's output
python3 tests/ncu/mkreport.py --full "$tmp/full.ncu-rep" && cmp -s "$tmp/full.ncu-rep" "$full" && ok ||
	bad "$full is not what 'tests/ncu/mkreport.py --full' writes: regenerate it"
python3 tests/ncu/mkreport.py "$tmp/tiny.ncu-rep" && cmp -s "$tmp/tiny.ncu-rep" tests/golden/_inputs/tiny.ncu-rep && ok ||
	bad "tiny.ncu-rep is not what tests/ncu/mkreport.py writes"

start_server "$full"

re='^(launch__|device__attribute_|dram__bytes\.sum\.per_second$|smsp__cycles_elapsed\.avg\.per_second$)'
same body body
same 'body?id=0' body --id 0
same 'body?id=1&section=Occupancy' body --id 1 --section Occupancy
same "body?id=0&metric=$(enc "$re")" body --id 0 --metric "$re"
same 'raw?id=0' raw --id 0
same 'raw?id=1&print_units=base' raw --id 1 --print-units base
same 'raw?id=0&print_units=auto' raw --id 0 --print-units auto
same 'details?id=1' details --id 1
same list list

# the values mkfull.py wrote
expect 200 "body of sgemm_tile" "${url}api/file/1/ncu/body?id=0"
python3 - "$tmp/body" <<'PY' && ok || bad "body of sgemm_tile: unexpected rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["body"]
def sec(i): return [r for r in rows if r["section_id"] == i]
# SOL: the bar chart, then 5 + 5 breakdown sub-metrics under their entries
sol = sec("SpeedOfLight")
bar = [(r["label"], r["value"]) for r in sol if r["type"] == "bar"]
dram = 100 * 2e11 / 3.36e11
assert bar == [("Compute (SM) [%]", 72.5), ("Memory [%]", dram)], bar
bd = [r for r in sol if r["parent"]]
assert [r["parent"] for r in bd] == ["breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed"] * 5 + \
    ["breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] * 5
assert max(r["value"] for r in bd[:5]) == 72.5 and max(r["value"] for r in bd[5:]) == dram
assert ("SM: Pipe Fma Cycles Active", 72.5) in [(r["label"], r["value"]) for r in bd]
# items kept without metrics: the roofline, two memory tables
nul = [(r["section_id"], r["kind"], r["type"]) for r in rows if r["metric"] is None]
assert nul == [("SpeedOfLight_RooflineChart", 6, "roofline"), ("MemoryWorkloadAnalysis_Tables", 101, "memory_shared_table"),
               ("MemoryWorkloadAnalysis_Tables", 104, "memory_dram_table")], nul
# stalls: 9 declared, GMMA absent
st = [(r["label"], r["value"]) for r in sec("WarpStateStats") if r["type"] == "bar"]
assert len(st) == 9 and st[-1] == ("Stall GMMA", None) and sum(v for _, v in st[:-1]) == 11.0, st
# opcode mix: 12 instances, by name, summing to the executed instructions
mix = [r for r in sec("InstructionStats") if r["instance"] is not None]
assert [r["x_text"] for r in mix] == sorted(r["x_text"] for r in mix) and len(mix) == 12
assert sum(r["value"] for r in mix) == 190496 and ("FFMA", 120000) in [(r["x_text"], r["value"]) for r in mix]
# occupancy: 200/3 %, limits, the curves' instances
occ = {r["metric"]: r for r in sec("Occupancy") if r["instance"] is None}
assert occ["sm__maximum_warps_per_active_cycle_pct"]["value"] == 100 * 32 / 48
assert [occ["launch__occupancy_limit_" + k]["value"] for k in ("blocks", "registers", "shared_mem", "warps")] == [16, 4, 7, 6]
n = {}
for r in sec("Occupancy"):
    if r["instance"] is not None:
        n[r["metric"]] = n.get(r["metric"], 0) + 1
assert n == {"launch__occupancy_per_register_count": 256, "launch__occupancy_per_block_size": 32,
             "launch__occupancy_per_shared_mem_size": 25}, n
reg = [(r["x"], r["value"]) for r in sec("Occupancy") if r["metric"] == "launch__occupancy_per_register_count" and r["instance"] is not None]
assert reg[64] == (64, 32) and reg[32] == (32, 48) and reg[255] == (255, 8)
PY
expect 200 "raw of sgemm_tile" "${url}api/file/1/ncu/raw?id=0"
python3 - "$tmp/body" <<'PY' && ok || bad "raw of sgemm_tile: unexpected rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["metrics"]
assert len(rows) == 93 and {r["id"] for r in rows} == {0}
d = [r for r in rows if r["metric"] == "dram__bytes.sum.per_second"][0]
assert (d["unit"], d["value"], d["text"], d["instances"]) == ("Gbyte/s", 200, "200", 0), d
# mkfull.py's shared memory counters: 30,000 loads in 45,000 wavefronts
sh = {r["metric"]: (r["unit"], r["value"]) for r in rows if "shared_op" in r["metric"] or "op_shared" in r["metric"]}
assert sh == {"smsp__sass_inst_executed_op_shared_ld.sum": ("inst", 30000), "smsp__sass_inst_executed_op_shared_st.sum": ("inst", 0),
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": ("", 45000), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": ("", 0),
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": ("", 15000),
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": ("", 0)}, sh
PY
expect 200 "raw of relu_kernel, base units" "${url}api/file/1/ncu/raw?id=1&print_units=base"
python3 - "$tmp/body" <<'PY' && ok || bad "raw of relu_kernel: unexpected rows (above)"
import json, sys
rows = json.load(open(sys.argv[1]))["metrics"]
assert len(rows) == 83 and {r["id"] for r in rows} == {1}
d = [r for r in rows if r["metric"] == "dram__bytes.sum.per_second"][0]
assert (d["unit"], d["value"], d["text"]) == ("byte/s", 300000000000, "300,000,000,000"), d
PY
expect 400 "raw: bad units" "${url}api/file/1/ncu/raw?id=0&print_units=si"
expect 400 "raw: unknown parameter" "${url}api/file/1/ncu/raw?section=Occupancy"
kill "$pid"
wait "$pid" 2>/dev/null
pid=
finish
