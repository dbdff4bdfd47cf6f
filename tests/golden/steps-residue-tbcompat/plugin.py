"""torch-tb-profiler's step breakdown of residue.json, computed here with
Python floats as the plugin does (ts and dur read by the json module as
float64 µs, end = ts + dur; the Runtime part is the length of the merged
runtime ranges inside the step, Other what is left of the step, each list's
lengths added in time order), from the fixture's structure (one
ProfilerStep holding 300 runtimes that do not touch; by hand), not from
gpuprof. Compares them with `gpuprof steps --tb-compat`'s CSV on stdin (ns)
after the plugin's rounding to whole µs (Python round) and within 1 ns,
and prints one line per value. Usage: plugin.py residue.json."""
import csv
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
span = [(e["ts"], e["ts"] + e["dur"]) for e in ev]  # floats, as the plugin holds them
step, rts = span[0], span[1:]
runtime = 0.0
for s, e in rts:
    runtime += e - s
other = 0.0
for s, e in zip([step[0]] + [e for _, e in rts], [s for s, _ in rts] + [step[1]]):
    other += e - s  # the gaps: the step minus the runtimes, in time order
want = {"runtime_ns": runtime, "other_ns": other, "total_ns": step[1] - step[0]}
row = next(csv.DictReader(line for line in sys.stdin if not line.startswith("#") and line.strip()))
for col, w in want.items():
    g = int(row[col])
    ok = round(g / 1000) == round(w) and abs(g - w * 1000) <= 1
    print(f"{'ok  ' if ok else 'DIFF'} {col} plugin {w!r} µs -> {round(w)} gpuprof {g} ns -> {round(g / 1000)}")
