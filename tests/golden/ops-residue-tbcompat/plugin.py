"""torch-tb-profiler's operator numbers for residue.json, computed here with
Python floats as the plugin does (ts and dur read by the json module as
float64 µs, end = ts + dur, a duration end - start, self host time = host
time - the children's durations, and a group's sum added call by call in
the tree's post-order), from the fixture's structure (one aten::index
holding 300 aten::select; by hand), not from gpuprof. Compares them with
`gpuprof ops --tb-compat`'s CSV on stdin (ns, the plugin's µs float to the
nearest ns) after the plugin's rounding to whole µs (Python round), and
prints one line per value. Usage: plugin.py residue.json."""
import csv
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
dur = [(e["ts"] + e["dur"]) - e["ts"] for e in ev]  # floats, as the plugin holds them
index, selects = dur[0], dur[1:]
host_select = 0.0
for d in selects:
    host_select += d
self_index = index
for d in selects:
    self_index -= d
want = {
    # name: calls, host total, host self (µs floats)
    "aten::select": (len(selects), host_select, host_select),
    "aten::index": (1, index, self_index),
}
got = {r["name"]: r for r in csv.DictReader(sys.stdin)}
for name, vals in want.items():
    for col, w in zip(("calls", "host_total_ns", "host_self_ns"), vals):
        g = int(got[name][col]) if name in got else None
        if col == "calls":
            print(f"{'ok  ' if g == w else 'DIFF'} {name} {col} plugin {w} gpuprof {g}")
            continue
        print(f"{'ok  ' if round(g / 1000) == round(w) and abs(g - w * 1000) <= 0.5 else 'DIFF'} "
              f"{name} {col} plugin {w!r} µs -> {round(w)} gpuprof {g} ns -> {round(g / 1000)}")
