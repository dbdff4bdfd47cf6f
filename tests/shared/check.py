"""Checks `gpuprof info --format json` on the real traces of the shared data
folder against (1) the numbers written in data/torch-large/PROVENANCE.md and
data/torch/PROVENANCE.md, copied below by hand, and (2) counts made here,
independently of gpuprof, from the decompressed JSON with Python's json
module. Standard library only. Usage: check.py GPUPROF DATA_DIR.

What gpuprof counts (see src/views/view_info.c and src/kineto/import_commit.c),
and how it is recomputed here:
- events: every element of traceEvents.
- phases: events whose "ph" is a string, by that string (one ASCII letter).
- categories: X, B, i and I events that have a "ts", by "cat" as written.
- [memory] instants: i/I events named "[memory]" with a "ts".
- steps: X/B/i events named ProfilerStep#N whose category is cpu_op,
  operator or user_annotation (any case); gpu_user_annotation copies are
  not steps.
- first_ts_ns / last_end_ns: min(ts) and max(ts + dur) in integer ns over
  kept X/B/i events (B ends at its matching E), from the decimal text.
- zero_duration: X events with dur 0 (these traces have no B/E).
"""
import collections
import decimal
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

PASS = 0
FAIL = 0


def check(what, got, want):
    global PASS, FAIL
    if got == want:
        PASS += 1
    else:
        FAIL += 1
        print(f"FAIL shared: {what}: got {got!r}, want {want!r}")


STEP = re.compile(r"ProfilerStep#[0-9]+\Z")
STEP_CATS = {"cpu_op", "operator", "user_annotation"}


def ns(v):
    """µs value as written (int or Decimal) -> exact integer ns."""
    return int(decimal.Decimal(v) * 1000)


def independent(path):
    """Counts made from the JSON text alone."""
    with gzip.open(path) if path.endswith(".gz") else open(path, "rb") as f:
        raw = f.read()
    doc = json.loads(raw, parse_float=decimal.Decimal)
    evs = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    r = {
        "json_bytes": len(raw),
        "events": len(evs),
        "phases": collections.Counter(),
        "cats": collections.Counter(),
        "cats_x_dur_pos": collections.Counter(),
        "memory": 0,
        "steps": 0,
        "x_zero_dur": 0,
        "x_dur_pos": 0,
        "min_ts": None,
        "max_end": None,
        "is_trace": not isinstance(doc, dict) or "traceEvents" in doc,
    }
    open_b = {}

    def span(ts, end):
        if r["min_ts"] is None or ts < r["min_ts"]:
            r["min_ts"] = ts
        if r["max_end"] is None or end > r["max_end"]:
            r["max_end"] = end

    for e in evs:
        if not isinstance(e, dict) or not isinstance(e.get("ph"), str):
            continue
        ph = e["ph"]
        r["phases"][ph] += 1
        ts = e.get("ts")
        if ph not in ("X", "B", "E", "i", "I") or not isinstance(ts, (int, decimal.Decimal)):
            continue
        track = (e.get("pid", 0), e.get("tid", 0))
        if ph == "E":
            stack = open_b.get(track)
            if stack:
                stack.pop()
                span(ns(ts), ns(ts))
            continue
        cat = e.get("cat") if isinstance(e.get("cat"), str) else ""
        name = e.get("name") if isinstance(e.get("name"), str) else ""
        r["cats"][cat] += 1
        dur = e.get("dur") if ph == "X" and isinstance(e.get("dur"), (int, decimal.Decimal)) else 0
        span(ns(ts), ns(ts) + ns(dur))
        if ph == "B":
            open_b.setdefault(track, []).append(1)
        if ph == "X":
            if dur == 0:
                r["x_zero_dur"] += 1
            elif dur > 0:
                r["x_dur_pos"] += 1
                r["cats_x_dur_pos"][cat] += 1
        if ph in ("i", "I") and name == "[memory]":
            r["memory"] += 1
        if STEP.match(name) and cat.lower() in STEP_CATS:
            r["steps"] += 1
    meta = doc if isinstance(doc, dict) else {}
    r["devices"] = [d.get("name") for d in meta.get("deviceProperties", []) if isinstance(d, dict)]
    dist = meta.get("distributedInfo")
    r["world_size"] = dist.get("world_size") if isinstance(dist, dict) else None
    r["rank"] = dist.get("rank") if isinstance(dist, dict) else None
    return r


def info(gpuprof, path):
    p = subprocess.run([gpuprof, "-q", "info", "--format", "json", path],
                       capture_output=True, text=True)
    d = json.loads(p.stdout) if p.returncode == 0 and p.stdout else None
    return p.returncode, p.stderr.strip(), d


def phases_of(d):
    return {r["phase"]: r["count"] for r in d["phases"]}


def cats_of(d):
    return {r["category"]: r["count"] for r in d["categories"]}


def memory_of(d):
    return d["trace"]["memory_events"]


def anomaly(d, key):
    return sum(r["count"] for r in d["anomalies"] if r["anomaly"] == key)


def compare(label, d, ind):
    """gpuprof's info against the independent counts."""
    t = d["trace"]
    check(f"{label}: events", t["events"], ind["events"])
    check(f"{label}: json_bytes", t["json_bytes"], ind["json_bytes"])
    check(f"{label}: per-phase counts", phases_of(d), dict(ind["phases"]))
    check(f"{label}: per-category counts", cats_of(d), dict(ind["cats"]))
    check(f"{label}: [memory] instants", memory_of(d), ind["memory"])
    check(f"{label}: ProfilerStep events", t["steps"], ind["steps"])
    check(f"{label}: first_ts_ns", t["first_ts_ns"], ind["min_ts"])
    check(f"{label}: last_end_ns", t["last_end_ns"], ind["max_end"])
    if ind["min_ts"] is not None:
        check(f"{label}: span_ns", t["span_ns"], ind["max_end"] - ind["min_ts"])
    check(f"{label}: truncated", t["truncated"], False)


# data/torch-large/PROVENANCE.md, "Files" table and "Content per file".
# cats_x_dur_pos: categories of ph=X events with dur>0, as written there.
LARGE = {
    "tracelens_mi300x_xdit_sd35_rank0.json.gz": dict(
        json_bytes=62422530, events=239093, X=200514, x_dur_pos=200514,
        phases={"f": 30454, "s": 8065, "M": 58, "i": 2},
        cats_x_dur_pos={"python_function": 134628, "cuda_runtime": 30453, "cpu_op": 27354,
                        "kernel": 8042, "gpu_memcpy": 23, "user_annotation": 7,
                        "gpu_user_annotation": 5, "gpu_memset": 1, "Trace": 1},
        device="AMD Instinct MI300X", world_size=1, backend="nccl", torch_version=None,
        display_time_unit="ms"),
    "tracelens_h100_owlv2.json.gz": dict(
        json_bytes=55643189, events=132152, X=104159, x_dur_pos=104159,
        phases={"i": 13476, "f": 8905, "s": 5552, "M": 60},
        cats_x_dur_pos={"python_function": 65313, "cpu_op": 24378, "cuda_runtime": 8567,
                        "kernel": 4330, "gpu_memset": 750, "cuda_driver": 725, "gpu_memcpy": 85,
                        "user_annotation": 7, "overhead": 2, "gpu_user_annotation": 1,
                        "Trace": 1},
        device="NVIDIA H100 80GB", world_size=None, backend=None, torch_version="2.6.0+cu124",
        cuda_runtime_version="12040", cuda_driver_version="12090", cupti_version="22"),
    "hta_v100_df_index_resolver.json.gz": dict(
        json_bytes=53733385, events=216092, X=123379, x_dur_pos=114728, x_zero_dur=8651,
        phases={"f": 42373, "i": 28012, "s": 22290, "M": 38},
        cats_x_dur_pos={"cpu_op": 56680, "cuda_runtime": 33722, "kernel": 19370,
                        "gpu_memcpy": 2040, "user_annotation": 2035, "gpu_memset": 880,
                        "Trace": 1},
        device="Tesla V100-SXM2-32GB", world_size=2, rank=1, backend="nccl",
        torch_version=None, memory=28010, steps=5),
    "hta_mtia_rank0.json.gz": dict(
        json_bytes=86940133, events=455739, X=138373, x_dur_pos=138373,
        phases={"M": 310046},
        cats_x_dur_pos={"cpu_op": 108889, "mtia_ccp_events": 25814, "mtia_runtime": 3453,
                        "user_annotation": 214, "Trace": 3},
        device=None, torch_version=None, display_time_unit="ms"),
}

# data/torch/PROVENANCE.md, tb_plugin_samples table (ProfilerStep#5..#10 and
# #16..#21: six steps in each span).
TB = {
    "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz": dict(
        events=75718, memory=12838, steps=6, s=9096, f=9096,
        cats_x={"Operator": 23646, "Runtime": 11923, "Kernel": 8772, "Memset": 312,
                "Memcpy": 12, "Trace": 1}),
    "resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz": dict(steps=6),
    "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz": dict(
        events=71424, memory=10980, steps=6),
    "resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz": dict(steps=6),
}


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def main():
    gpuprof, data = sys.argv[1], sys.argv[2]
    large_dir = os.path.join(data, "torch-large")
    torch_dir = os.path.join(data, "torch")
    paths = [os.path.join(large_dir, n) for n in LARGE]
    for dp, _, fs in os.walk(torch_dir):
        paths += [os.path.join(dp, f) for f in fs if f.endswith(".json.gz")]
    paths = sorted(set(paths))
    for p in paths:
        if not os.path.exists(p):
            check(f"{p}: present", False, True)
    paths = [p for p in paths if os.path.exists(p)]
    # Byte-identical copies (torch-large holds two files of torch/) are
    # parsed once.
    by_hash = {}
    hashes = {p: file_hash(p) for p in paths}
    for p in paths:
        by_hash.setdefault(hashes[p], p)
    uniq = sorted(by_hash.values(), key=os.path.getsize, reverse=True)
    with ProcessPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        ind_by_hash = dict(zip((hashes[p] for p in uniq), pool.map(independent, uniq)))
    ind = {p: ind_by_hash[hashes[p]] for p in paths}

    # Every trace under torch/ and torch-large/: loads, and its counts agree.
    # A .json.gz that is not a Kineto trace (a PyTorch Execution Trace: an
    # object with "nodes" and no "traceEvents") must be refused with exit 2.
    outs = {}
    for p in paths:
        label = os.path.relpath(p, data)
        if not ind[p].get("is_trace", True):
            rc, err, d = info(gpuprof, p)
            check(f"{label}: refused as not a trace ({err})", rc, 2)
            check(f"{label}: says why", "no \"traceEvents\"" in (err or ""), True)
            continue
        rc, err, d = info(gpuprof, p)
        check(f"{label}: exit status ({err})", rc, 0)
        if d is None:
            continue
        outs[p] = d
        compare(label, d, ind[p])

    # torch-large: the numbers of PROVENANCE.md.
    for name, want in LARGE.items():
        p = os.path.join(large_dir, name)
        if p not in outs:
            continue
        d, r, t = outs[p], ind[p], outs[p]["trace"]
        label = "torch-large/" + name
        # the independent count agrees with PROVENANCE.md ...
        check(f"{label}: python events vs PROVENANCE", r["events"], want["events"])
        check(f"{label}: python X vs PROVENANCE", r["phases"]["X"], want["X"])
        check(f"{label}: python X dur>0 vs PROVENANCE", r["x_dur_pos"], want["x_dur_pos"])
        check(f"{label}: python X dur>0 per category vs PROVENANCE",
              dict(r["cats_x_dur_pos"]), want["cats_x_dur_pos"])
        # ... and so does gpuprof
        check(f"{label}: json_bytes", t["json_bytes"], want["json_bytes"])
        check(f"{label}: events", t["events"], want["events"])
        ph = phases_of(d)
        check(f"{label}: X count", ph.get("X"), want["X"])
        for k, v in want["phases"].items():
            check(f"{label}: {k} count", ph.get(k), v)
        check(f"{label}: zero_duration anomalies", anomaly(d, "zero_duration"),
              want.get("x_zero_dur", 0))
        check(f"{label}: missing_duration anomalies", anomaly(d, "missing_duration"), 0)
        check(f"{label}: negative_duration anomalies", anomaly(d, "negative_duration"), 0)
        # categories of X events with dur>0 are a subset of info's counts
        cats = cats_of(d)
        for c, v in want["cats_x_dur_pos"].items():
            if cats.get(c, 0) < v:
                check(f"{label}: category {c} >= PROVENANCE's X dur>0 count", cats.get(c, 0), v)
        check(f"{label}: no 'kernel' category" if name.startswith("hta_mtia") else f"{label}: kernel category",
              "kernel" in cats, not name.startswith("hta_mtia"))
        names = [x["name"] for x in d["devices"]]
        check(f"{label}: device names (independent)", names, r["devices"])
        if want["device"] is None:
            check(f"{label}: no deviceProperties", names, [])
        else:
            check(f"{label}: a device named {want['device']}*",
                  bool(names) and all(n.startswith(want["device"]) for n in names), True)
        check(f"{label}: torch_version", t["torch_version"], want["torch_version"])
        check(f"{label}: world size (independent)", t["dist_world_size"], r["world_size"])
        check(f"{label}: rank (independent)", t["dist_rank"], r["rank"])
        for k in ("world_size", "rank"):
            if k in want:
                check(f"{label}: dist {k}", t["dist_" + k], want[k])
        for k in ("backend",):
            if k in want:
                check(f"{label}: dist backend", t["dist_backend"], want[k])
        for k in ("cuda_runtime_version", "cuda_driver_version", "cupti_version",
                  "display_time_unit"):
            if k in want:
                check(f"{label}: {k}", t[k], want[k])
        if "memory" in want:
            check(f"{label}: [memory] instants", memory_of(d), want["memory"])
        if "steps" in want:
            check(f"{label}: ProfilerStep events", t["steps"], want["steps"])
        check(f"{label}: format", t["format"], "Kineto chrome-trace JSON (object form), gzip")

    # tb_plugin samples: the numbers of data/torch/PROVENANCE.md.
    tb_dir = os.path.join(torch_dir, "tb_plugin_samples")
    for name, want in TB.items():
        p = os.path.join(tb_dir, name)
        label = "tb_plugin_samples/" + name
        if p not in outs:
            check(f"{label}: loaded", False, True)
            continue
        d, r, t = outs[p], ind[p], outs[p]["trace"]
        if "events" in want:
            check(f"{label}: events", t["events"], want["events"])
        if "memory" in want:
            check(f"{label}: [memory] instants", memory_of(d), want["memory"])
            check(f"{label}: python [memory] vs PROVENANCE", r["memory"], want["memory"])
        check(f"{label}: ProfilerStep events", t["steps"], want["steps"])
        check(f"{label}: python steps vs PROVENANCE", r["steps"], want["steps"])
        ph = phases_of(d)
        for k in ("s", "f"):
            if k in want:
                check(f"{label}: {k} count", ph.get(k), want[k])
        if "cats_x" in want:
            cats = cats_of(d)
            for c, v in want["cats_x"].items():
                check(f"{label}: category {c}", cats.get(c), v)
        check(f"{label}: deviceProperties present", len(d["devices"]) > 0, True)

    print(f"shared: {PASS} passed, {FAIL} failed")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
