"""Stage hta: `gpuprof idle` against HTA's definitions.

1. HTA's own expected numbers (shared/reference/hta.md A.3): the MTIA
   single-rank trace's temporal breakdown, within the tolerance HTA's test
   allows (0.01 percentage points).
2. Every HTA test trace in ../shared/data/torch/hta (skipped when absent)
   and the fixtures of tests/hta/fixtures: selection, temporal breakdown and
   idle per stream equal tests/hta/oracle.py's independent computation from
   the raw JSON.
Usage: check.py GPUPROF
"""
import glob
import json
import math
import os
import subprocess
import sys

import critpath_check
import counters
import oracle
import tracelens

GPUPROF = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "data", "torch", "hta")
passed = failed = 0


def check(label, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {label} {detail}"[:2000])


def run(path, *args, view="idle"):
    p = subprocess.run([GPUPROF, view, "--format", "json", *args, path], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{path}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def near_ns(got_ns, want_us):
    return abs(got_ns - want_us * 1000) <= 1


def compare(label, path, threshold_us=30):
    want = oracle.analyse(path, threshold_us)
    args = [] if threshold_us == 30 else ["--kernel-wait", f"{threshold_us}us"]
    got = run(path, *args)
    sel = got["selection"]
    check(f"{label}: rounded", sel["rounded_to_us"] == want["rounded"],
          f"{sel['rounded_to_us']} != {want['rounded']}")
    check(f"{label}: filter", sel["last_step_filter"] == want["filter"],
          f"{sel['last_step_filter']} != {want['filter']}")
    check(f"{label}: device events", sel["device_events"] == want["device_events"],
          f"{sel['device_events']} != {want['device_events']}")
    tw = want["temporal"]
    tg = got["temporal"]
    check(f"{label}: temporal rows", len(tg) == (1 if tw else 0), f"{len(tg)}")
    if tw and tg:
        for k in ("idle", "compute", "non_compute", "kernel_time"):
            check(f"{label}: temporal {k}", near_ns(tg[0][f"{k}_ns" if k == "kernel_time"
                                                         else f"{k}_time_ns"], tw[k]),
                  f"{tg[0]} vs {tw}")
        pct = 100 * tw["idle"] / tw["kernel_time"] if tw["kernel_time"] else None
        if pct is not None:
            check(f"{label}: idle pct", abs(tg[0]["idle_time_pct"] - pct) < 1e-9)
    iw = want["idle"]
    ig = got["idle"]
    check(f"{label}: idle rows", [(r["stream"], r["idle_category"]) for r in ig] ==
          [(s, c) for s, c, _, _, _ in iw],
          f"{[(r['stream'], r['idle_category']) for r in ig]} vs {[(s, c) for s, c, *_ in iw]}")
    for r, (s, c, tot, ratio, gaps) in zip(ig, iw):
        check(f"{label}: idle {s} {c}", near_ns(r["idle_time_ns"], tot),
              f"{r['idle_time_ns']} vs {tot}")
        if ratio is None:
            check(f"{label}: ratio {s} {c} null", r["idle_time_ratio"] is None)
        else:
            check(f"{label}: ratio {s} {c}", abs(r["idle_time_ratio"] - ratio) < 1e-9,
                  f"{r['idle_time_ratio']} vs {ratio}")
    return got, want


def intervals(label, path):
    got = run(path, "--show-intervals")
    want = oracle.analyse(path)["idle"]
    rows = got["intervals"]
    check(f"{label}: interval rows", len(rows) == len(want))
    for r, (s, c, tot, ratio, gaps) in zip(rows, want):
        g = sorted(gaps)
        check(f"{label}: {s} {c} count", r["count"] == len(g))
        if not g:
            check(f"{label}: {s} {c} empty", r["mean_ns"] is None and r["max_ns"] is None)
            continue
        mean = sum(g) / len(g)
        check(f"{label}: {s} {c} mean", abs(r["mean_ns"] - mean * 1000) < 1e-3 * max(1, abs(mean)))
        check(f"{label}: {s} {c} min/max", near_ns(r["min_ns"], g[0]) and near_ns(r["max_ns"], g[-1]))
        # pandas' linear percentile, by hand
        pos = (len(g) - 1) * 0.9
        lo = int(pos)
        p90 = g[lo] + (g[min(lo + 1, len(g) - 1)] - g[lo]) * (pos - lo)
        check(f"{label}: {s} {c} p90", abs(r["p90_ns"] - p90 * 1000) < 1e-3 * max(1, abs(p90)),
              f"{r['p90_ns']} vs {p90 * 1000}")
        if len(g) > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in g) / (len(g) - 1))
            check(f"{label}: {s} {c} std", abs(r["std_ns"] - sd * 1000) < 1e-3 * max(1, sd))
        else:
            check(f"{label}: {s} {c} std null", r["std_ns"] is None)


def compare_launches(label, path, memory=True):
    want = oracle.launches(path, memory)
    args = ["--all-launches", "--top", "0"] + ([] if memory else ["--no-memory"])
    got = run(path, *args, view="launches")
    pw, pg = want["pairs"], got["launches"]
    label += "" if memory else " (no memory)"
    check(f"{label}: launch pairs", len(pg) == len(pw), f"{len(pg)} != {len(pw)}")
    bad = [i for i, (g, w) in enumerate(zip(pg, pw)) if not (
        g["correlation"] == w["corr"] and near_ns(g["cpu_duration_ns"], w["cpu"]) and
        near_ns(g["gpu_duration_ns"], w["gpu"]) and near_ns(g["launch_delay_ns"], w["delay"]) and
        g["short_kernel"] == w["short"] and g["runtime_outlier"] == w["runtime"] and
        g["delay_outlier"] == w["delayed"])]
    check(f"{label}: every launch pair", not bad,
          f"first differing row {bad[:1]}: {pg[bad[0]] if bad else ''} vs {pw[bad[0]] if bad else ''}")
    flags = [sum(w[k] for w in pw) for k in ("short", "runtime", "delayed")]
    check(f"{label}: flag counts", [got["summary"]["short_kernels"], got["summary"]["runtime_outliers"],
                                    got["summary"]["delay_outliers"]] == flags,
          f"{got['summary']} vs {flags}")
    aw, ag = want["aten"], got["aten_ops"]
    check(f"{label}: aten rows", len(ag) == len(aw), f"{len(ag)} != {len(aw)}")
    bad = [i for i, (g, w) in enumerate(zip(ag, aw)) if not (
        g["aten_op_name"] == w[0] and g["kernel_sequence"] == w[1] and
        g["occurrence_count"] == w[2] and abs(g["avg_aten_op_launch_delay_ns"] - w[3] * 1000) < 1e-3
        and abs(g["avg_runtime_delay_ns"] - w[4] * 1000) < 1e-3)]
    check(f"{label}: every aten row", not bad,
          f"first differing {bad[:1]}: {ag[bad[0]] if bad else ''} vs {aw[bad[0]] if bad else ''}")


SEQ_OPS = [None, "ProfilerStep", "aten::linear", "aten::conv2d", "aten::mm", "aten::add",
           "aten::copy_", "Backward"]
SEQ_OPS_HTA = [None, "aten::linear", "aten::mm", "Backward"]


def compare_sequences(label, path, ops=SEQ_OPS, min_len=3):
    """`gpuprof sequences` against the oracle's reading of HTA's
    get_frequent_cuda_kernel_sequences, every pattern and instance."""
    graph = oracle.seq_graph(path)
    for op in ops:
        want = oracle.sequences(graph, op, min_len)
        args = ["--top", "0", "--show-instances", "--min-length", str(min_len)]
        got = run(path, *args, *(["--operator", op] if op else []), view="sequences")
        lab = f"{label} sequences {op or 'steps'}"
        sm = got["summary"]
        t0 = int(sm["trace_start_ns"] or 0)
        check(f"{lab}: candidates", sm["candidates"] == want["candidates"],
              f"{sm['candidates']} != {want['candidates']}")
        check(f"{lab}: depth", sm["depth"] == want["depth"], f"{sm['depth']} != {want['depth']}")
        check(f"{lab}: instances", sm["instances"] == len(want["instances"]),
              f"{sm['instances']} != {len(want['instances'])}")
        pg = [(p["pattern"], p["length"], p["count"], p["gpu_kernel_time_ns"], p["cpu_op_time_ns"],
               p["first_ts_ns"]) for p in got["sequences"]]
        pw = [(p, n, c, round(g * 1000), round(u * 1000), round(ts * 1000) - t0)
              for p, n, c, g, u, ts in want["patterns"]]
        bad = [i for i, (a, b) in enumerate(zip(pg, pw)) if a != b]
        check(f"{lab}: patterns", len(pg) == len(pw) and not bad,
              f"{len(pg)} vs {len(pw)}; first differing {bad[:1]}: "
              f"{pg[bad[0]] if bad else ''} vs {pw[bad[0]] if bad else ''}")
        ids = {p: i for i, (p, *_) in enumerate(pw)}
        ig = [(x["ts_ns"], x["pattern_id"]) for x in got["instances"]]
        iw = sorted((round(oracle_ts(want, i) * 1000) - t0, ids["|".join(k)])
                    for i, k, _ in want["instances"])
        check(f"{lab}: instances", sorted(ig) == iw, f"{ig[:3]} vs {iw[:3]}")
    return graph


def compare_overlay(label, path, op, top=5, min_len=3):
    """`gpuprof trace overlay sequences`: valid JSON, every event of the
    input as it was, but HTA's "Patterns" {pattern: count} in the args of
    each event of an instance of the top patterns (the oracle's), nothing
    else added; read back, the same sequences."""
    want = oracle.sequences(oracle.seq_graph(path), op, min_len)
    pats = {p[0]: p[2] for p in want["patterns"][:top]}
    mark = {}
    for _, key, sub in want["instances"]:
        text = "|".join(key)
        if text in pats:
            for i in sub:
                mark[i] = {text: pats[text]}
    args = ["trace", "overlay", "sequences", "--top", str(top), "--min-length", str(min_len),
            *(["--operator", op] if op else []), path, "-o", "-"]
    p = subprocess.run([GPUPROF, *args], capture_output=True)
    lab = f"{label} overlay {op or 'steps'}"
    if p.returncode != 0:
        check(lab, False, p.stderr.decode()[:300])
        return
    got = json.loads(p.stdout)
    orig = oracle.load(path)
    ge, oe = got["traceEvents"], orig["traceEvents"]
    bad = []
    for i, (g, o) in enumerate(zip(ge, oe)):
        w = o
        if i in mark:
            w = dict(o, args=dict(o.get("args") or {}, Patterns=mark[i]))
        if g != w:
            bad.append(i)
    check(f"{lab}: events", len(ge) == len(oe) and not bad,
          f"{len(ge)} vs {len(oe)}; first differing {bad[:1]}")
    check(f"{lab}: marked", len(mark) > 0 and
          sum(1 for g in ge if "Patterns" in (g.get("args") or {})) == len(mark), f"{len(mark)}")
    check(f"{lab}: the rest", {k: v for k, v in got.items() if k != "traceEvents"} ==
          {k: v for k, v in orig.items() if k != "traceEvents"})
    back = subprocess.run([GPUPROF, "sequences", "--format", "json", "--top", "0", "--min-length",
                           str(min_len), *(["--operator", op] if op else []), "-"],
                          input=p.stdout, capture_output=True)
    again = run(path, "--top", "0", "--min-length", str(min_len),
                *(["--operator", op] if op else []), view="sequences")
    check(f"{lab}: read back", back.returncode == 0 and
          json.loads(back.stdout)["sequences"] == again["sequences"], back.stderr.decode()[:300])


def oracle_ts(want, i):
    return want["by_i"][i]["ts"]


def seq_hta_expected():
    """HTA's own expectations its tests assert: no frequent sequence of
    aten::clone in df_index_resolver (test_no_frequent_cuda_kernel_sequences_found);
    in call_stack/backward_thread.json the kernel at depth 6, each of its 7
    events on the path from ProfilerStep#552 with num_kernels 1, the
    backward thread linked under "## backward ##" (test_trace_call_graph)."""
    p = os.path.join(SHARED, "tests", "data", "df_index_resolver", "df_index_resolver.json.gz")
    if os.path.exists(p):
        got = run(p, "--operator", "aten::clone", view="sequences")
        check("df_index_resolver: no aten::clone sequences",
              got["summary"]["patterns"] == 0 and got["sequences"] == [], f"{got['summary']}")
    p = os.path.join(SHARED, "tests", "data", "call_stack", "backward_thread.json")
    if not os.path.exists(p):
        return
    path = ["ProfilerStep#552", "## backward ##",
            "autograd::engine::evaluate_function: AddmmBackward0", "AddmmBackward0", "aten::mm",
            "cudaLaunchKernel",
            "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>"]
    for depth, name in enumerate(path):
        one = run(p, "--operator", name, "--min-length", "1", "--show-instances",
                  view="sequences")
        two = run(p, "--operator", name, "--min-length", "2", view="sequences")
        inst = [x for x in one["instances"] if name in x["operator"]]
        check(f"backward_thread: {name} at depth {depth} with 1 kernel",
              len(inst) == 1 and inst[0]["kernels"] == 1 and two["summary"]["instances"] == 0
              and one["summary"]["depth"] == depth - (name == "AddmmBackward0"),
              f"{one['summary']} {one['instances']}")
    compare_sequences("call_stack/backward_thread.json", p)
    compare_sequences("call_stack/backward_thread.json", p, ops=path, min_len=1)
    compare_overlay("call_stack/backward_thread.json", p, "aten::mm", min_len=1)
    p = os.path.join(SHARED, "tests", "data", "ns_resolution_trace",
                     "rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")
    if os.path.exists(p):
        compare_overlay("ns_resolution_trace", p, "aten::add_", min_len=1)


def hta_expected(path):
    """HTA's test_mtia_temporal_breakdown: percentages of its numbers, to
    0.01 points; and the exact microseconds of today's definitions."""
    got = run(path)["temporal"][0]
    for key, num in (("idle_time_pct", 5648827), ("compute_time_pct", 7305596),
                     ("non_compute_time_pct", 373924)):
        want = round(num * 100 / 13328347, 3)
        check(f"mtia: {key} within HTA's 0.01 of {want}", abs(got[key] - want) < 0.01,
              f"{got[key]}")
    check("mtia: exact", (got["idle_time_ns"], got["compute_time_ns"], got["non_compute_time_ns"],
                          got["kernel_time_ns"]) ==
          (5649476000, 7305597000, 372998000, 13328071000), f"{got}")


def main():
    fixtures = sorted(glob.glob(os.path.join(HERE, "fixtures", "*.json")))
    for f in fixtures:
        compare(os.path.basename(f), f)
        compare(os.path.basename(f) + " (10us)", f, 10)
        intervals(os.path.basename(f), f)
        compare_launches(os.path.basename(f), f)
        compare_launches(os.path.basename(f), f, memory=False)
        compare_sequences(os.path.basename(f), f)
        compare_sequences(os.path.basename(f), f, min_len=1)
        if os.path.basename(f) == "sequences.json":
            compare_overlay(os.path.basename(f), f, "aten::linear", top=2)
            compare_overlay(os.path.basename(f), f, None)
    traces = sorted(glob.glob(os.path.join(SHARED, "**", "*.json.gz"), recursive=True))
    traces = [t for t in traces if "memory_timeline" not in t and "_et.json" not in t]
    if not traces:
        print("hta: ../shared/data/torch/hta absent: HTA's traces skipped")
    for t in traces:
        label = os.path.relpath(t, SHARED)
        try:
            compare(label, t)
            compare_launches(label, t)
            compare_sequences(label, t, ops=SEQ_OPS_HTA)
        except RuntimeError as e:
            check(label, False, str(e))
        if "mtia_trace_single_rank" in t:
            hta_expected(t)
            intervals(label, t)
    seq_hta_expected()
    tracelens.run(GPUPROF, check)
    critpath_check.run(GPUPROF, check, SHARED, HERE)
    counters.run_all(GPUPROF, check)
    print(f"hta: {passed} passed, {failed} failed")


main()
