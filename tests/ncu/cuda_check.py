#!/usr/bin/env python3
"""`gpuprof ncu source` table `cuda` against NVIDIA's CSV of
`ncu --import R --page source --print-source cuda,sass --csv`: the CSV
lists each CUDA line ("Line No", its text, the sums of its SASS rows'
counters) followed by its SASS rows (Address, text, counters; "..." rows
only mark gaps). Every line of ncu's must be a row of ours with the same
file, line number, text, addresses (ours: `addresses`) and summed counters
(where ours has a value; ncu prints 0 where the report has none), in the
same order, and ours must have no other line. Each SASS address's own
line (`source` table's `file`, `line`) must be one of the lines ncu lists
it under.

usage: cuda_check.py GPUPROF NVDISASM REPORT CSV
Prints "cuda: N of M lines equal" or one line per failure; exit 1 on any.
"""
import json
import os
import subprocess
import sys

COUNTERS = [
    ("inst_executed", "Instructions Executed"),
    ("thread_inst_executed", "Thread Instructions Executed"),
    ("thread_inst_executed_true", "Predicated-On Thread Instructions Executed"),
    ("derived__avg_thread_executed", "Avg. Threads Executed"),
    ("derived__avg_thread_executed_true", "Avg. Predicated-On Threads Executed"),
    ("derived__avg_thread_unexecuted_true", "Avg. Predicated-On Threads Unexecuted"),
]


def ncu_fields(line):
    """One CSV line as ncu writes it: every field in double quotes, joined by
    commas, quotes inside a field NOT doubled (`"extern "C" __global__"`),
    so a CSV reader misreads such a field; split on the '","' between
    fields instead (no field of these files holds '","')."""
    line = line.rstrip("\r\n")
    assert line.startswith('"') and line.endswith('"'), line
    return line[1:-1].split('","')


def ncu_lines(path):
    """(file, [line dicts with 'addrs']) from ncu's CSV."""
    with open(path, newline="") as f:
        rows = [ncu_fields(x) for x in f if x.strip()]
    assert rows[0][0] == "File Path" and rows[1][0] == "Function Name", rows[:2]
    head = rows[2]  # "Line No","Source","Address","Source",counters...
    lines = []
    for r in rows[3:]:
        if r[0]:
            d = {"line": int(r[0]), "text": r[1], "addrs": []}
            d.update({t: r[head.index(t)] for _, t in COUNTERS})
            lines.append(d)
        elif r[2] != "...":
            lines[-1]["addrs"].append(r[2])
    return rows[0][1], lines


def main():
    gpuprof, nvd, report, csv_path = sys.argv[1:5]
    env = dict(os.environ, GPUPROF_NVDISASM=nvd)
    out = subprocess.run([gpuprof, "--format", "json", "ncu", "source", report], env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode:
        print(f"FAIL cuda: exit {out.returncode}: {out.stderr.strip()}")
        return 1
    got = json.loads(out.stdout)
    file, want = ncu_lines(csv_path)
    ours = got["cuda"]
    fails = []
    equal = 0
    if len(ours) != len(want):
        fails.append(f"{len(ours)} lines, ncu lists {len(want)}")
    for w, g in zip(want, ours):
        bad = []
        if (g["file"], g["line"], g["source"]) != (file, w["line"], w["text"]):
            bad.append(f"want {file}:{w['line']} [{w['text']}] got "
                       f"{g['file']}:{g['line']} [{g['source']}]")
        if g["addresses"].split(" ") != w["addrs"] or g["instructions"] != len(w["addrs"]):
            bad.append(f"addresses want {w['addrs']} got {g['addresses']}")
        for key, title in COUNTERS:
            v = g[key]
            if v is None and float(w[title]) == 0:
                continue
            if v is None or abs(v - float(w[title])) > 1e-9 * max(1, abs(v)):
                bad.append(f"{title}: want {w[title]} got {v}")
        if bad:
            fails.append(f"line {w['line']}: " + "; ".join(bad))
        else:
            equal += 1
    under = {}
    for w in want:
        for a in w["addrs"]:
            under.setdefault(a, set()).add(w["line"])
    for r in got["source"]:
        if r["address"] in under and (r["file"] != file or r["line"] not in under[r["address"]]):
            fails.append(f"{r['address']}: own line {r['file']}:{r['line']} not among "
                         f"ncu's {sorted(under[r['address']])}")
    for f in fails[:20]:
        print("FAIL cuda:", f)
    print(f"cuda: {equal} of {len(want)} lines equal, {len(fails)} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
