"""torch-tb-profiler's operator numbers for epoch.json, computed here with
Python floats as the plugin does (ts and dur read by the json module as
float64 µs; end = ts + dur; durations end - start; self host time = host
time - children - own runtimes; device time = Σ kernel end - start), written
out from the fixture's structure (the nesting below is the fixture's, by
hand), not from gpuprof. Compares them with `gpuprof ops --tb-compat`'s CSV
on stdin (ns) and prints one line per value. Usage: plugin.py epoch.json."""
import csv
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
span = [(e["ts"], e["ts"] + e["dur"]) for e in ev]  # floats, as the plugin holds them
dur = [end - start for start, end in span]
linear, addmm, rt1, k1, relu1, rt2, k2, relu2 = range(8)
want = {
    # name: calls, host total, host self, device total, device self (µs)
    "aten::linear": (1, dur[linear], dur[linear] - dur[addmm], dur[k1], 0.0),
    "aten::addmm": (1, dur[addmm], dur[addmm] - dur[rt1], dur[k1], dur[k1]),
    "aten::relu": (2, dur[relu1] + dur[relu2], (dur[relu1] - dur[rt2]) + dur[relu2], dur[k2], dur[k2]),
}
cols = ("calls", "host_total_ns", "host_self_ns", "device_total_ns", "device_self_ns")
got = {r["name"]: r for r in csv.DictReader(sys.stdin)}
for name, vals in want.items():
    for col, w in zip(cols, vals):
        g = int(got[name][col]) if name in got else None
        w_ns = w if col == "calls" else round(w * 1000)
        print(f"{'ok  ' if g == w_ns else 'DIFF'} {name} {col} plugin {w_ns} gpuprof {g}")
