"""torch-tb-profiler's GPU metrics for epoch.json, computed here with Python
floats as the plugin does (ts and dur read by the json module as float64
µs, end = ts + dur; the window is the one step's [start, end]; utilization
= merged kernel time / window, SM efficiency = Σ min(blocks per SM, 1) ×
length / window, occupancy = Σ occupancy × length / Σ length; the two
kernels do not overlap), written from the fixture, not from gpuprof.
Compares them with `gpuprof summary --tb-compat --format json` on stdin and
prints one line per value. Usage: plugin.py epoch.json."""
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
step, k1, k2 = ev
ws, we = step["ts"], step["ts"] + step["dur"]
ln = [(k["ts"] + k["dur"]) - k["ts"] for k in (k1, k2)]  # the plugin's float lengths
bps = [min(k["args"]["blocks per SM"], 1.0) for k in (k1, k2)]
occ = [k["args"]["est. achieved occupancy %"] for k in (k1, k2)]
want = {
    "gpu_utilization_pct": (ln[0] + ln[1]) / (we - ws) * 100,
    "est_sm_efficiency_pct": (bps[0] * ln[0] + bps[1] * ln[1]) / (we - ws) * 100,
    "est_achieved_occupancy_pct": (occ[0] * ln[0] + occ[1] * ln[1]) / (ln[0] + ln[1]),
}
got = json.load(sys.stdin)["gpus"][0]
for key, w in want.items():
    print(f"{'ok  ' if got[key] == w else 'DIFF'} {key} plugin {w!r} gpuprof {got[key]!r}")
