"""`gpuprof flops` against AMD TraceLens' own perf reports: for every trace
of ../shared/data/torch/tracelens that has a `*_perf_report_csvs/` folder
with GEMM.csv or SDPA_fwd.csv (TraceLens' regression references), each of
their rows has the row of `gpuprof flops --top 0 --format json` with the
same operator, shape and dtype, with equal call count, GFLOPS and data
moved (MB = MiB) (to 1e-9: the models' arithmetic), and kernel time mean
(us) and TFLOPS/s mean to 5e-5 relative: TraceLens keeps kernel durations
in single precision (its means are binary fractions such as 27.341796875 us
where the trace's exact sum is 27.342 us), gpuprof in exact ns; on its
references the two differ by at most 1.8e-5. Skipped when absent.
Imported by check.py: run(gpuprof, check) -> None.
"""
import csv
import glob
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "..", "..", "shared", "data", "torch", "tracelens", "tests",
                      "traces")


def rel(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def key_of(row, cat):
    dt = row["param: dtype_A_B"].strip("()").split(",")[0].strip().strip("'")
    if cat == "GEMM":
        p = "B=%s M=%s N=%s K=%s bias=%s" % (row["param: B"], row["param: M"], row["param: N"],
                                             row["param: K"], row["param: bias"].lower())
    else:
        p = "B=%s Hq=%s Nq=%s Hkv=%s Nkv=%s d=%s dv=%s causal=%s" % (
            row["param: B"], row["param: H_Q"], row["param: N_Q"], row["param: H_KV"],
            row["param: N_KV"], row["param: d_h_qk"], row["param: d_h_v"],
            row["param: causal"].lower())
    return (row["name"], p, dt)


def run(gpuprof, check):
    found = 0
    for folder in sorted(glob.glob(os.path.join(TRACES, "**", "*_perf_report_csvs"),
                                   recursive=True)):
        trace = folder[: -len("_perf_report_csvs")] + ".json.gz"
        if not os.path.exists(trace):
            continue
        p = subprocess.run([gpuprof, "flops", "--top", "0", "--format", "json", trace],
                           capture_output=True, text=True)
        label = "tracelens " + os.path.relpath(trace, TRACES)
        if p.returncode != 0:
            check(label, False, p.stderr.strip())
            continue
        ours = {(r["name"], r["params"], r["dtype"]): r for r in json.loads(p.stdout)["ops"]}
        for cat, sheet in (("GEMM", "GEMM.csv"), ("SDPA_fwd", "SDPA_fwd.csv")):
            path = os.path.join(folder, sheet)
            if not os.path.exists(path):
                continue
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    found += 1
                    k = key_of(row, cat)
                    g = ours.get(k)
                    check(f"{label}: {sheet} row {k}", g is not None, "missing from gpuprof flops")
                    if g is None:
                        continue
                    check(f"{label}: {k} calls", g["calls"] == int(row["name_count"]),
                          f"{g['calls']} != {row['name_count']}")
                    check(f"{label}: {k} GFLOPS", rel(g["gflops"], float(row["GFLOPS_first"])),
                          f"{g['gflops']} != {row['GFLOPS_first']}")
                    check(f"{label}: {k} data", rel(g["data_moved_mb"],
                                                     float(row["Data Moved (MB)_first"])),
                          f"{g['data_moved_mb']} != {row['Data Moved (MB)_first']}")
                    kt = float(row["Kernel Time (µs)_mean"])
                    check(f"{label}: {k} kernel time",
                          abs(g["gpu_time_mean_ns"] / 1000 - kt) <= 5e-5 * kt,
                          f"{g['gpu_time_mean_ns']} vs {kt}")
                    tf = float(row["TFLOPS/s_mean"])
                    check(f"{label}: {k} TFLOPS/s", abs(g["tflops_s_mean"] - tf) <= 5e-5 * tf,
                          f"{g['tflops_s_mean']} vs {tf}")
    if not found:
        print("hta: ../shared/data/torch/tracelens absent: TraceLens' reports skipped")
